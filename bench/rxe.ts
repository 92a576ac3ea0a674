/**
 * rxe benchmarks, each in the QEMU VM with rxe0 (bench/rxe-guest.ts runs inside):
 * - post rate: 1,000,000 receive WRs into SRQs in lists of 1 and 64, through the binding from JS,
 *   against the same loop in C (bench/post_loop.c); target binding >= 0.5x C.
 * - the full shared suite against rxe: wall time with the VM boot (target < 3 min) and without it
 *   (the run's own start and finish times in results.json).
 * Prints its figures as the last stdout line (bench/measure.ts). Run: node dist/bench/rxe.js
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runInVm } from '../adapters/rxe/vm/run.js';
import { projectRoot } from '../adapters/rxe/vm/project-root.js';
import { type Figure, emit } from './measure.js';
import type { GuestRates } from './rxe-guest.js';

const VM_TIMEOUT_MS = 30 * 60 * 1000;

/** Runs a command in the VM and returns its stdout; fails on a non-zero guest status. */
async function inVm(command: string[], workDir: string): Promise<{ stdout: string; durationMs: number }> {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const result = await runInVm({ command, workDir, timeoutMs: VM_TIMEOUT_MS, stdout });
  if (result.exitCode > 1) throw new Error(`${command.join(' ')} exited with ${result.exitCode} in the VM (console log ${result.consoleLogPath})`);
  return { stdout: Buffer.concat(chunks).toString('utf8'), durationMs: result.durationMs };
}

async function postRates(workDir: string): Promise<Figure[]> {
  const guest = join(projectRoot(), 'dist/bench/rxe-guest.js');
  const { stdout } = await inVm([process.execPath, guest], workDir);
  const rates = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as GuestRates;
  const command = 'node dist/bench/rxe.js (in the VM: node dist/bench/rxe-guest.js)';
  return Object.keys(rates.c).flatMap((listLen) => {
    const c = rates.c[listLen] as number;
    const viaBinding = rates.binding[listLen] as number;
    const ratio = viaBinding / c;
    return [
      { name: `post_srq_recv rate, C loop, lists of ${listLen}`, value: Math.round(c), unit: 'WR/s', command },
      { name: `post_srq_recv rate, addon's C loop, lists of ${listLen}`, value: Math.round(rates.addonLoop[listLen] as number), unit: 'WR/s', command },
      { name: `post_srq_recv rate, binding from JS, lists of ${listLen}`, value: Math.round(viaBinding), unit: 'WR/s', command },
      {
        name: `binding / C post rate, lists of ${listLen}`,
        value: Number(ratio.toFixed(3)),
        unit: 'ratio',
        target: { text: '>= 0.5', met: ratio >= 0.5 },
        command,
      },
    ];
  });
}

async function suiteTimes(workDir: string): Promise<Figure[]> {
  const main = join(projectRoot(), 'dist/cli/main.js');
  const command = 'node dist/cli/main.js run --adapter ibverbs --vm --quiet';
  const { durationMs } = await inVm([process.execPath, main, 'run', '--adapter', 'ibverbs', '--quiet', '--out', 'report'], workDir);
  const results = JSON.parse(await readFile(join(workDir, 'report/results.json'), 'utf8')) as { run: { startedAt: string; finishedAt: string } };
  const inGuestMs = Date.parse(results.run.finishedAt) - Date.parse(results.run.startedAt);
  return [
    { name: 'full suite against rxe, with VM boot', value: Math.round(durationMs / 1000), unit: 's', target: { text: '< 180 s', met: durationMs < 180_000 }, command },
    { name: 'full suite against rxe, without VM boot', value: Math.round(inGuestMs / 1000), unit: 's', command },
  ];
}

const workDir = await mkdtemp(join(projectRoot(), '.bench-rxe-'));
try {
  emit('rxe', [...(await postRates(workDir)), ...(await suiteTimes(workDir))]);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
