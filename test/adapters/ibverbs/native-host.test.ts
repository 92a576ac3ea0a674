import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERBS_CONSTANT_NAMES, addonPath, loadBinding, nativeAvailability } from '../../../adapters/ibverbs/native/index.js';

const built = existsSync(addonPath());
/** These tests describe a host without RDMA (the rxe device is only in the VM). */
const hostHasRdma = existsSync('/sys/class/infiniband') && readdirSync('/sys/class/infiniband').length > 0;

describe.skipIf(built)('native binding, not built', () => {
  it('reports addon-not-built and says how to build it', () => {
    const availability = nativeAvailability();
    expect(availability).toMatchObject({ available: false, reason: 'addon-not-built' });
    expect(availability.available === false && availability.detail).toContain('npm run build:native');
  });
});

describe.skipIf(!built || hostHasRdma)('native binding on a host without RDMA', () => {
  it('lists no device and reports no-rdma-device', () => {
    expect(loadBinding().deviceList()).toEqual([]);
    expect(nativeAvailability()).toMatchObject({ available: false, reason: 'no-rdma-device' });
  });

  it('throws with errno when a device cannot be opened', () => {
    expect(() => loadBinding().open('rxe0')).toThrow(expect.objectContaining({ errno: expect.any(Number) }));
  });
});

describe.skipIf(!built)('native binding, built', () => {
  it('exports exactly the constants the TypeScript interface names', () => {
    expect(Object.keys(loadBinding().constants).sort()).toEqual([...VERBS_CONSTANT_NAMES].sort());
  });

  it('throws a TypeError for misuse: unknown handles and wrong argument types', () => {
    const binding = loadBinding();
    expect(() => binding.allocPd(12345)).toThrow(new TypeError('unknown ctx handle 12345'));
    expect(() => binding.pollCq(-1, 1)).toThrow(TypeError);
    expect(() => binding.open(42 as unknown as string)).toThrow(TypeError);
  });

  it.each([
    ['segv', 'SIGSEGV'],
    ['fpe', 'SIGFPE'],
    ['abort', 'SIGABRT'],
  ])('crashForTest(%s) kills its process with %s', (kind, signal) => {
    const script = `require(${JSON.stringify(addonPath())}).crashForTest(${JSON.stringify(kind)})`;
    // No core file: exec node from a shell that has set the core size limit to 0.
    const child = spawnSync('/bin/sh', ['-c', 'ulimit -c 0; exec "$0" -e "$1"', process.execPath, script]);
    expect(child.signal).toBe(signal);
  });
});
