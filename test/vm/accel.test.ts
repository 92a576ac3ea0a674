import { accessSync, constants, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseAccel, cpuFor } from '../../vm/accel.js';

const kvmUsable = (() => {
  try {
    accessSync('/dev/kvm', constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();

/** A stand-in for qemu-system-x86_64 that does what `body` says (a shell script). */
function fakeQemu(body: string): { qemu: string; cache: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rvt-accel-'));
  const qemu = join(dir, 'qemu-system-x86_64');
  writeFileSync(qemu, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return { qemu, cache: dir };
}

describe('the accelerator', () => {
  it('is the host CPU under KVM and every emulated feature under TCG', () => {
    expect(cpuFor('kvm')).toBe('host');
    expect(cpuFor('tcg')).toBe('max');
  });

  it.runIf(kvmUsable)('is KVM when a guest under it speaks, and the answer is kept per host and QEMU', async () => {
    const { qemu, cache } = fakeQemu('echo "[    0.000000] Linux version 6.1.0"; sleep 5');
    expect(await chooseAccel(qemu, '/boot/vmlinuz', cache, 3000)).toEqual({ accel: 'kvm' });
    writeFileSync(qemu, '#!/bin/sh\nexit 1\n');
    // Same size and mtime would be needed to reuse the answer: a replaced QEMU is probed again.
    expect((await chooseAccel(qemu, '/boot/vmlinuz', cache, 3000)).accel).toBe('tcg');
  });

  it.runIf(kvmUsable)('is TCG, with the reason, when QEMU under KVM dies or its guest stays silent', async () => {
    const dies = fakeQemu('echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2; exit 134');
    expect(await chooseAccel(dies.qemu, '/boot/vmlinuz', dies.cache, 3000)).toEqual({
      accel: 'tcg',
      why: 'QEMU under KVM exited (134) before the guest spoke: qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69',
    });
    const silent = fakeQemu('sleep 10');
    expect(await chooseAccel(silent.qemu, '/boot/vmlinuz', silent.cache, 300)).toEqual({ accel: 'tcg', why: 'a guest under KVM printed nothing within 0.3 s' });
  });

  it.skipIf(kvmUsable)('is TCG without a probe when /dev/kvm cannot be opened', async () => {
    const { qemu, cache } = fakeQemu('echo "Linux version"');
    expect((await chooseAccel(qemu, '/boot/vmlinuz', cache)).accel).toBe('tcg');
  });
});
