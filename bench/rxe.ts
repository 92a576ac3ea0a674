/**
 * rxe benchmarks, each in the QEMU VM with rxe0 (bench/rxe-guest.ts runs inside):
 * - post rate: 1,000,000 receive WRs into SRQs in lists of 1 and 64, through the binding from JS,
 *   against the same loop in C (bench/post_loop.c); target binding >= 0.5x C.
 * - the full shared suite against rxe as users run it (from the repository root): the first case
 *   result and the whole run, boot included, and the run alone (results.json).
 * Prints its figures as the last stdout line (bench/measure.ts). Run: node dist/bench/rxe.js
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { execa } from 'execa';
import { runInVm } from '../vm/run.js';
import { projectRoot } from '../vm/project-root.js';
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

/**
 * The full suite the way a user runs it, from the repository root: `run --adapter ibverbs --vm`,
 * boot included, timed from the command to its first case result and to its exit; the host's load
 * average when it started is part of the figure (the VM's speed follows it).
 */
async function suiteTimes(workDir: string): Promise<Figure[]> {
  const root = projectRoot();
  const args = ['run', '--adapter', 'ibverbs', '--vm', '--expectations', 'expectations/rxe.yaml', '--out', join(relative(root, workDir), 'report')];
  const command = `rvt-conform ${args.slice(0, -2).join(' ')}`;
  const load = loadavg()[0]?.toFixed(1) ?? '?';
  const started = performance.now();
  let firstResultMs: number | undefined;
  const child = execa(process.execPath, [join(root, 'dist/cli/main.js'), ...args], { cwd: root, reject: false, buffer: false, stdout: 'ignore' });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (firstResultMs === undefined && /^\[1\/\d+\] /m.test(chunk.toString('utf8'))) firstResultMs = performance.now() - started;
  });
  const { exitCode } = await child;
  const totalMs = performance.now() - started;
  if (exitCode !== 0) throw new Error(`${command} exited with ${exitCode}`);
  const results = JSON.parse(await readFile(join(workDir, 'report/results.json'), 'utf8')) as { run: { durationMs: number } };
  return [
    { name: `first case result after the command (load ${load})`, value: Number(((firstResultMs ?? Number.NaN) / 1000).toFixed(1)), unit: 's', target: { text: '< 15 s at load ~1, < 30 s under load (issue 21)', met: (firstResultMs ?? Infinity) < 15_000 }, command },
    { name: `full suite against rxe, with VM boot (load ${load})`, value: Number((totalMs / 1000).toFixed(1)), unit: 's', target: { text: '< 75 s at load ~1 (issue 21)', met: totalMs < 75_000 }, command },
    { name: 'full suite against rxe, the run alone (results.json)', value: Number((results.run.durationMs / 1000).toFixed(1)), unit: 's', command },
  ];
}

const workDir = await mkdtemp(join(projectRoot(), '.bench-rxe-'));
try {
  emit('rxe', [...(await postRates(workDir)), ...(await suiteTimes(workDir))]);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
