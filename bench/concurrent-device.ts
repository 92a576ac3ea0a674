/**
 * Issue 17's device target: a concurrent case of 4 posters, 4 consumers and 100,000 WRs on rxe0 in
 * the VM, run and checked in under 10 s; through libibverbs (the addon's threads) and through the
 * kernel verbs (rvtc's kthreads). bench/concurrent-guest.ts runs inside. The checker's own scaling
 * is bench/concurrent-checker.ts. Run: npm run -s build && node dist/bench/concurrent-device.js
 * [device [seeds [resizes]]] (rxe0, 1, 4: the target's figure; e.g. rvt_sim0 5 64 is a stress run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { resolveKernel } from '../vm/kernel.js';
import { rvtcModule } from '../vm/rvtc.js';
import { VM_DEVICES, isVmDevice } from '../vm/devices.js';
import { projectRoot } from '../vm/project-root.js';
import { runInVm } from '../vm/run.js';
import type { GuestConcurrent } from './concurrent-guest.js';
import { type Figure, emit } from './measure.js';

const VM_TIMEOUT_MS = 30 * 60 * 1000;
const args = process.argv.slice(2);
const device = args[0] ?? 'rxe0';
if (!isVmDevice(device)) throw new Error(`no VM device ${device}: one of ${VM_DEVICES.join(', ')}`);
const COMMAND = 'npm run -s build && node dist/bench/concurrent-device.js (in the VM: node dist/bench/concurrent-guest.js)';

const chunks: Buffer[] = [];
const stdout = new Writable({
  write(chunk: Buffer, _encoding, done) {
    chunks.push(chunk);
    done();
  },
});
const workDir = await mkdtemp(join(projectRoot(), '.bench-concurrent-'));
try {
  const guest = join(projectRoot(), 'dist/bench/concurrent-guest.js');
  const result = await runInVm({ command: [process.execPath, guest, ...args], workDir, modules: [await rvtcModule(resolveKernel())], device,
    // libibverbs binds to rvt_sim0 only as a qib device (rdma-core's ipathverbs provider); the kernel verbs take it either way.
    deviceOptions: { qibId: device === 'rvt_sim0' }, timeoutMs: VM_TIMEOUT_MS, stdout, stderr: process.stderr });
  if (result.exitCode !== 0) throw new Error(`concurrent-guest exited with ${result.exitCode} (console log ${result.consoleLogPath})`);
  const runs = JSON.parse(Buffer.concat(chunks).toString('utf8').trim().split('\n').at(-1) ?? '') as GuestConcurrent[];
  const figures: Figure[] = runs.flatMap((r) => {
    const total = (r.runMs + r.checkMs) / 1000;
    const about = `${r.operations} operations, ${r.violations} violations${r.err === 0 ? '' : `, stopped with errno ${r.err}`}`;
    return [
      { name: `4 posters, 4 consumers, 100,000 WRs on ${device} through ${r.layer}, seed ${r.seed}: run + check (${about})`, value: Number(total.toFixed(2)), unit: 's', target: { text: '< 10 s', met: total < 10 && r.err === 0 }, command: COMMAND },
      { name: `the same: the check alone`, value: Math.round(r.checkMs), unit: 'ms', command: COMMAND },
    ];
  });
  emit('concurrent-device', figures);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
