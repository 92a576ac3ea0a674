/**
 * The kernel as a parameter (issue 41's targets), in the QEMU VM:
 * - from a staged kernel to the first case result on rvt_sim0: with nothing of that kernel
 *   cached (our modules, the initramfs, the vmlinux, the guest's startup snapshot, the saved guest,
 *   the kernel-doc drift) and then with everything cached; targets < 3 min and < 60 s;
 * - the same three tiers (rdmavt through both layers, rxe0's kernel verbs) in one boot on two
 *   kernels, side by side; target: the second at most 1.2x the first.
 * Run: npm run bench:kernel-matrix -- [--kernel K] [--against K2]  (K: default .vm-cache/kernels/6.12,
 * staged by `sh vm/stage-kernel.sh 6.12 .vm-cache/kernels/6.12`; K2: the default kernel).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveKernel } from '../vm/kernel.js';
import { projectRoot, vmCacheDir } from '../vm/project-root.js';
import { type Figure, emit } from './measure.js';

const CLI = join(projectRoot(), 'dist/cli/main.js');
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const staged = arg('--kernel') ?? join(vmCacheDir(), 'kernels/6.12');
const against = arg('--against');

/** Everything the VM caches of one kernel, so the next run builds and boots it from nothing. */
async function forget(release: string): Promise<void> {
  const cache = vmCacheDir();
  await rm(join(cache, release), { recursive: true, force: true });
  for (const dir of ['snapshots', 'saved']) {
    const names = await readdir(join(cache, dir)).catch(() => [] as string[]);
    for (const name of names) if (name.startsWith(`guest-${release}-`)) await rm(join(cache, dir, name), { force: true });
  }
  await rm(join(cache, 'doc-drift'), { recursive: true, force: true });
}

/** Seconds from the command's start to its first case result ("[1/N] ..." on stderr), and to its end. */
function firstResult(args: readonly string[], cwd: string): Promise<{ first: number; total: number; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let first = Number.NaN;
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => {
      if (Number.isNaN(first) && /^\[1\/\d+\] /m.test(chunk.toString('utf8'))) first = (performance.now() - started) / 1000;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ first, total: (performance.now() - started) / 1000, code }));
  });
}

const round = (s: number) => Math.round(s * 10) / 10;

async function firstCase(workDir: string): Promise<Figure[]> {
  const kernel = resolveKernel(staged);
  const run = ['run', '--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--kernel', staged, '--profile', 'rdmavt', '--case', 'post_srq_recv/single-wr', '--out', 'first'];
  const command = `rvt-conform ${run.join(' ')}`;
  await forget(kernel.release);
  const cold = await firstResult(run, workDir);
  const warm = await firstResult(run, workDir);
  return [
    { name: `staged ${kernel.release} to the first case result on rvt_sim0, nothing cached`, value: round(cold.first), unit: 's', target: { text: '< 180 s', met: cold.first < 180 }, command },
    { name: `staged ${kernel.release} to the first case result on rvt_sim0, builds cached`, value: round(warm.first), unit: 's', target: { text: '< 60 s', met: warm.first < 60 }, command },
  ];
}

async function sideBySide(workDir: string): Promise<Figure[]> {
  const tiers = (kernel: string, out: string) =>
    `tiers:\n${[
      ['kernel-rdmavt', 'kernel', 'rvt_sim0', 'rdmavt', 'kernel-rdmavt'],
      ['ibverbs-rdmavt', 'ibverbs', 'rvt_sim0', 'rdmavt', 'ibverbs-rdmavt'],
      ['kernel-rxe', 'kernel', 'rxe0', 'documented', 'kernel-rxe'],
    ]
      .map(([name, adapter, device, profile, expectations]) =>
        `  - { name: ${name}, kernel: ${JSON.stringify(kernel)}, adapter: ${adapter}, device: ${device}, profile: ${profile}, expectations: ${join(projectRoot(), `expectations/${expectations}.yaml`)}, timeout: 120, out: ${out}/${name} }`,
      )
      .join('\n')}\n`;
  const base = against ?? resolveKernel().release;
  await writeFile(join(workDir, 'a.yaml'), tiers(base, 'a'));
  await writeFile(join(workDir, 'b.yaml'), tiers(staged, 'b'));
  const a = await firstResult(['tiers', 'a.yaml'], workDir);
  const b = await firstResult(['tiers', 'b.yaml'], workDir);
  const ratio = b.total / a.total;
  const command = 'rvt-conform tiers FILE (the same three tiers on each kernel, one boot each)';
  return [
    { name: `three tiers in one boot on ${base}`, value: round(a.total), unit: 's', command },
    { name: `three tiers in one boot on ${resolveKernel(staged).release}`, value: round(b.total), unit: 's', command },
    { name: 'second kernel / first kernel', value: Number(ratio.toFixed(2)), unit: 'ratio', target: { text: '<= 1.2', met: ratio <= 1.2 }, command },
  ];
}

const workDir = await mkdtemp(join(projectRoot(), '.bench-kernel-matrix-'));
try {
  emit('kernel-matrix', [...(await firstCase(workDir)), ...(await sideBySide(workDir))]);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
