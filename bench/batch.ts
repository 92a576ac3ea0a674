/**
 * Batching benchmark (issue 43, item 4), in the QEMU VM with rxe0, rvt_sim0 and the rvtc module:
 * fuzz-like commands (a receive to an SRQ, a SEND that consumes it, the wait for both completions)
 * per second, one verbs call per crossing against batches of 64 commands (executeSteps: rvtc's
 * BATCH through the kernel worker; the ibverbs worker's batch message on rxe0).
 * bench/batch-guest.ts runs inside. Prints its figures as the last stdout line (bench/measure.ts).
 * Run: npm run bench:batch
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { resolveKernel } from '../vm/kernel.js';
import { projectRoot } from '../vm/project-root.js';
import { rvtcModule } from '../vm/rvtc.js';
import { runInVm } from '../vm/run.js';
import type { BatchRates } from './batch-guest.js';
import { type Figure, emit } from './measure.js';

const VM_TIMEOUT_MS = 30 * 60 * 1000;
const DEVICES = ['rxe0', 'rvt_sim0'] as const;
/** Issue 43's target against the real rdmavt (rvt_sim0) and rxe0. */
const TARGET = 1000;

const workDir = await mkdtemp(join(projectRoot(), '.bench-batch-'));
try {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const guest = join(projectRoot(), 'dist/bench/batch-guest.js');
  const script = DEVICES.map((device) => `"${process.execPath}" "${guest}" ${device} bench || exit 1`).join('\n');
  const result = await runInVm({
    command: ['sh', '-c', script],
    workDir,
    devices: DEVICES,
    modules: [await rvtcModule(resolveKernel())],
    timeoutMs: VM_TIMEOUT_MS,
    stdout,
    stderr: process.stderr,
  });
  if (result.exitCode !== 0) throw new Error(`batch-guest exited with ${result.exitCode} (console log ${result.consoleLogPath})`);
  const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n').filter((line) => line.startsWith('{'));
  const figures: Figure[] = lines.flatMap((line) => {
    const { device, commandsPerSecond } = JSON.parse(line) as BatchRates;
    return Object.entries(commandsPerSecond).flatMap(([adapter, { oneByOne, batched }]) => {
      const command = `npm run bench:batch (in the VM: node dist/bench/batch-guest.js ${device} bench)`;
      return [
        { name: `${adapter} adapter on ${device}: commands/s, one call per crossing`, value: oneByOne, unit: 'commands/s', command },
        { name: `${adapter} adapter on ${device}: commands/s, batches of 64 commands`, value: batched, unit: 'commands/s', target: { text: `>= ${TARGET}`, met: batched >= TARGET }, command },
      ];
    });
  });
  emit('batch', figures);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
