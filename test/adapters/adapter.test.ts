import { describe, expect, it } from 'vitest';
import { type Adapter, type CaseHost, type CaseWatch, type WatchFinding, watched, withWatch } from '../../adapters/adapter.js';

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

describe('withWatch', () => {
  const splat: WatchFinding = { problem: 'the kernel logged a splat while the case ran', lines: ['[1.0] WARNING: x'], fatal: false };
  const other: WatchFinding = { problem: 'something else', lines: [], fatal: false };
  const caseHost: CaseHost = { runCase: async () => ({ kind: 'declined' }) };

  /** An adapter whose own watch appears late, as the kernel adapter's does with its first info(). */
  function lateWatch(own: CaseWatch) {
    let watch: CaseWatch | undefined;
    const adapter: Adapter = {
      info: async () => {
        watch = own;
        return undefined as never;
      },
      open: async () => undefined as never,
      dispose: async () => undefined,
      get watch() {
        return watch;
      },
      caseHost,
    };
    return adapter;
  }

  it('opens a span of both watches for each case, with its id, and reports the adapter\'s own finding first', async () => {
    const own = counting(splat);
    const ids: (string | undefined)[] = [];
    const extra = counting(other);
    const both = withWatch(lateWatch(own.watch), { start: (id) => (ids.push(id), extra.watch.start()) });
    expect(await watched(both.watch, async () => 1, 'post_srq_recv/basic')).toEqual({ value: 1, finding: other });
    await both.info();
    expect(await watched(both.watch, async () => 2, 'post_recv/basic')).toEqual({ value: 2, finding: splat });
    expect(ids).toEqual(['post_srq_recv/basic', 'post_recv/basic']);
    expect([own.open(), extra.open()]).toEqual([0, 0]);
    expect(both.caseHost).toBe(caseHost);
  });

  it("ends the adapter's span when the other watch cannot read what it saw", async () => {
    const own = counting(undefined);
    const adapter = lateWatch(own.watch);
    await adapter.info();
    const both = withWatch(adapter, { start: () => ({ end: () => { throw new Error('tracefs gone'); } }) });
    await expect(watched(both.watch, async () => 1)).rejects.toThrow('tracefs gone');
    expect(own.open()).toBe(0);
  });
});
