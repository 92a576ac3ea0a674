/**
 * Kernel adapter benchmarks, in the QEMU VM with rxe0 and the rvtc module:
 * - the round trip of one post through the control interface against the rxe adapter's native
 *   post of one WR (bench/kernel-guest.ts runs inside); target at most 3x.
 * - the full shared suite on the kernel adapter, VM boot and module build included; target < 3 min.
 * Prints its figures as the last stdout line (bench/measure.ts). Run: npm run bench:kernel
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { execa } from 'execa';
import { resolveKernel } from '../vm/kernel.js';
import { rvtcModule } from '../vm/rvtc.js';
import { projectRoot } from '../vm/project-root.js';
import { runInVm } from '../vm/run.js';
import type { GuestRoundTrips } from './kernel-guest.js';
import { type Figure, emit } from './measure.js';

const VM_TIMEOUT_MS = 30 * 60 * 1000;

async function roundTrips(workDir: string): Promise<Figure[]> {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const guest = join(projectRoot(), 'dist/bench/kernel-guest.js');
  const result = await runInVm({ command: [process.execPath, guest], workDir, modules: [await rvtcModule(resolveKernel())], timeoutMs: VM_TIMEOUT_MS, stdout });
  if (result.exitCode !== 0) throw new Error(`kernel-guest exited with ${result.exitCode} (console log ${result.consoleLogPath})`);
  const trips = JSON.parse(Buffer.concat(chunks).toString('utf8').trim().split('\n').at(-1) ?? '') as GuestRoundTrips;
  const ratio = trips.kernelSession / trips.native;
  const command = 'npm run bench:kernel (in the VM: node dist/bench/kernel-guest.js)';
  return [
    { name: 'one post of one WR through rvtc (kernel session)', value: Math.round(trips.kernelSession / 100) / 10, unit: 'µs', command },
    { name: 'the same post pre-encoded: write() + read() of /dev/rvtc only', value: Math.round(trips.kernelPreEncoded / 100) / 10, unit: 'µs', command },
    { name: 'a request that runs no verb (the floor of a round trip)', value: Math.round(trips.kernelEmpty / 100) / 10, unit: 'µs', command },
    { name: "one post of one WR, rxe adapter's native binding", value: Math.round(trips.native / 100) / 10, unit: 'µs', command },
    { name: 'rvtc round trip / native post', value: Number(ratio.toFixed(2)), unit: 'ratio', target: { text: '<= 3', met: ratio <= 3 }, command },
  ];
}

/** The user's command, from the repository root: module build (cached after the first) and boot included. */
async function suiteTime(workDir: string): Promise<Figure[]> {
  const started = performance.now();
  await execa(process.execPath, [join(projectRoot(), 'dist/cli/main.js'), 'run', '--adapter', 'kernel', '--vm', '--quiet', '--out', 'report',
    '--expectations', join(projectRoot(), 'expectations/kernel-rxe.yaml')], { cwd: workDir, reject: false });
  const seconds = Math.round((performance.now() - started) / 1000);
  const command = 'rvt-conform run --adapter kernel --vm --expectations expectations/kernel-rxe.yaml';
  return [{ name: 'full suite on the kernel adapter, rxe0, with VM boot', value: seconds, unit: 's', target: { text: '< 180 s', met: seconds < 180 }, command }];
}

const workDir = await mkdtemp(join(projectRoot(), '.bench-kernel-'));
try {
  emit('kernel', [...(await roundTrips(workDir)), ...(await suiteTime(workDir))]);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
