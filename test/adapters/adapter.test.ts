import { describe, expect, it } from 'vitest';
import { type CaseWatch, type WatchFinding, watched } from '../../adapters/adapter.js';

/** A watch that counts its open spans and reports `finding` at each end. */
function counting(finding: WatchFinding | undefined) {
  let open = 0;
  const watch: CaseWatch = {
    start() {
      open++;
      return {
        end() {
          open--;
          return finding;
        },
      };
    },
  };
  return { watch, open: () => open };
}

describe('watched', () => {
  const splat: WatchFinding = { problem: 'the kernel logged a splat while the case ran', lines: ['[1.0] WARNING: x'], fatal: false };

  it('returns the value and what the span saw, and ends the span', async () => {
    const w = counting(splat);
    expect(await watched(w.watch, async () => 7)).toEqual({ value: 7, finding: splat });
    expect(w.open()).toBe(0);
  });

  it('ends the span when the run throws, and lets the error through', async () => {
    const w = counting(splat);
    await expect(watched(w.watch, () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    expect(w.open()).toBe(0);
  });

  it('runs without a watch, finding nothing', async () => {
    expect(await watched(undefined, async () => 'x')).toEqual({ value: 'x', finding: undefined });
  });
});
