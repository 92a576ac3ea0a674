import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guestSnapshot, type SnapshotBuilder } from '../../vm/guest-snapshot.js';
import type { VmRunOptions, VmRunResult } from '../../vm/run.js';

const DONE: VmRunResult = { exitCode: 0, consoleLogPath: '/dev/null', durationMs: 1, kernel: {
    form: 'installed', origin: '6.1.0-test', release: '6.1.0-test', image: '/boot/vmlinuz-6.1.0-test', modulesBase: '/',
    kbuild: { dir: '/lib/modules/6.1.0-test/build' }, config: '/boot/config-6.1.0-test', configHash: '0', fingerprint: '0',
  },
  accel: { accel: 'tcg' },
};

/** A builder whose "VM" does what `act` says with the job's options; it counts its boots. */
async function builder(act: (options: VmRunOptions) => Promise<VmRunResult>) {
  const dir = await mkdtemp(join(tmpdir(), 'rvt-snapshots-'));
  const boots: VmRunOptions[] = [];
  const b: SnapshotBuilder = {
    dir,
    key: () => 'k',
    kernel: DONE.kernel,
    runInVm: async (options) => {
      boots.push(options);
      return act(options);
    },
  };
  return { b, dir, boots };
}

/** The blob the job builds, from its command line (`--snapshot-blob '<tmp>' --build-snapshot`). */
const tmpBlobOf = (options: VmRunOptions) => /--snapshot-blob '([^']+)' --build-snapshot/.exec(options.command.join(' '))?.[1] as string;

describe("the guest's startup snapshot", () => {
  it('is built once in a VM, checked by a start from it, and used from then on', async () => {
    const { b, dir, boots } = await builder(async (options) => {
      await writeFile(tmpBlobOf(options), 'blob');
      options.stdout?.write('0.1.0\n');
      return DONE;
    });
    const blob = await guestSnapshot(b);
    expect(blob).toBe(join(dir, 'guest-6.1.0-test-k.blob'));
    expect(await guestSnapshot(b)).toBe(blob);
    expect(boots).toHaveLength(1);
    expect(await readdir(dir)).toEqual(['guest-6.1.0-test-k.blob']);
    expect(boots[0]?.kernel).toBe(DONE.kernel);
  });

  it('is one per kernel, built under that kernel, and a new build of one keeps the others (Node reads uname into the blob)', async () => {
    const { b, dir, boots } = await builder(async (options) => {
      await writeFile(tmpBlobOf(options), 'blob');
      options.stdout?.write('0.1.0\n');
      return DONE;
    });
    const other = { ...DONE.kernel, release: '6.12.118+deb12-amd64' };
    await guestSnapshot(b);
    await guestSnapshot({ ...b, kernel: other });
    await guestSnapshot({ ...b, kernel: other, key: () => 'k2' });
    expect(boots.map((boot) => boot.kernel?.release)).toEqual(['6.1.0-test', '6.12.118+deb12-amd64', '6.12.118+deb12-amd64']);
    expect((await readdir(dir)).sort()).toEqual(['guest-6.1.0-test-k.blob', 'guest-6.12.118+deb12-amd64-k2.blob']);
  });

  it('is not tried again for the same build when the build itself failed (a blob V8 will not start from)', async () => {
    const { b, dir, boots } = await builder(async (options) => {
      await writeFile(tmpBlobOf(options), 'blob');
      options.stderr?.write('Error: snapshot could not be deserialized\n');
      return { ...DONE, exitCode: 1 };
    });
    expect(await guestSnapshot(b)).toBeUndefined();
    expect(await guestSnapshot(b)).toBeUndefined();
    expect(boots).toHaveLength(1);
    expect(await readdir(dir)).toEqual(['guest-6.1.0-test-k.failed']);
  });

  it("is tried again at the next run when the VM failed (a hung boot, a timeout under load): that is the VM's trouble, not the build's", async () => {
    const { b, dir, boots } = await builder(async () => {
      throw new Error('the VM did not finish within 600 s');
    });
    expect(await guestSnapshot(b)).toBeUndefined();
    expect(await guestSnapshot(b)).toBeUndefined();
    expect(boots).toHaveLength(2);
    expect(existsSync(join(dir, 'guest-6.1.0-test-k.failed'))).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});
