import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutants } from '../adapters/mutants/index.js';
import { resultsFiles } from '../reports/findings/inputs.js';
import type { RunResults } from '../reports/results-schema.js';
import { emit, time } from './measure.js';

/**
 * `rvt-conform findings` over all the runs CI writes (issue 44: under 2 s), end to end as a user
 * runs it: a fresh process that reads, validates and merges every results.json and writes the set.
 *
 *   node dist/bench/findings.js [DIR]
 *
 * DIR: a folder of results.json files, e.g. the conformance-report/ that .ci/run leaves (its 12
 * runs: the model, the kernel and libibverbs tiers on 6.1 and 6.12, rxe, the agent). Without it:
 * ./conformance-report when it holds results, else a set of the same size made here: the whole
 * suite on 12 mutants of the model (each fails its own cases), spread over two kernels, three
 * devices and both layers as CI's runs are.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const CI_RUNS = 12;

/** Where a made-up run was recorded: the coordinates of CI's tiers, round robin. */
const COORDINATES = [
  { kernel: '6.1.0-57-amd64', device: 'rvt_sim0', layer: 'kernel', driver: 'rdmavt' },
  { kernel: '6.1.0-57-amd64', device: 'rvt_sim0', layer: 'libibverbs', provider: 'ipathverbs' },
  { kernel: '6.1.0-57-amd64', device: 'rxe0', layer: 'kernel', driver: 'rdma_rxe' },
  { kernel: '6.1.0-57-amd64', device: 'siw0', layer: 'libibverbs', driver: 'siw', provider: 'siw' },
  { kernel: '6.12.118', device: 'rvt_sim0', layer: 'kernel', driver: 'rdmavt' },
  { kernel: '6.12.118', device: 'rvt_sim0', layer: 'libibverbs', provider: 'ipathverbs' },
] as const;

function madeUpSet(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvt-bench-findings-'));
  mutants.slice(0, CI_RUNS).forEach((mutant, i) => {
    const out = join(dir, `run-${i}`);
    try {
      execFileSync(process.execPath, [CLI, 'run', '--adapter', `mutant:${mutant.name}`, '--quiet', '--out', out], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      // a mutant fails its gate (exit 1): that is the point
    }
    const path = join(out, 'results.json');
    const results = JSON.parse(readFileSync(path, 'utf8')) as RunResults;
    const { kernel, device, layer, ...drivenBy } = COORDINATES[i % COORDINATES.length] as (typeof COORDINATES)[number];
    results.adapter = { ...results.adapter, layer, device: { name: device, kernel, ...drivenBy } };
    results.environment = { ...results.environment, kernel, vm: { kernel: { release: kernel, form: 'installed', origin: kernel, configHash: '000000000000' }, accel: 'tcg' } };
    writeFileSync(path, JSON.stringify(results));
  });
  return dir;
}

/** The CPU time of this process's waited-for children (/proc/self/stat cutime + cstime): on a shared machine, wall time is mostly the neighbours'. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
  // after the command name: state is field 3, cutime and cstime are fields 16 and 17, in clock ticks (USER_HZ, 100 on Linux)
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function main(): Promise<void> {
  const given = process.argv[2];
  const fallback = join(ROOT, 'conformance-report');
  const dir = given !== undefined ? resolve(given) : existsSync(join(fallback, 'results.json')) ? fallback : madeUpSet();
  const files = resultsFiles([dir]);
  const megabytes = files.reduce((sum, f) => sum + statSync(f).size, 0) / (1 << 20);
  const out = join(mkdtempSync(join(tmpdir(), 'rvt-bench-findings-out-')), 'findings');
  const cpu: number[] = [];
  const t = await time(async () => {
    const before = childrenCpuMs();
    execFileSync(process.execPath, [CLI, 'findings', dir, '--out', out], { cwd: ROOT, stdio: 'ignore' });
    cpu.push(childrenCpuMs() - before);
  }, 5);
  const cpuMedian = cpu.sort((a, b) => a - b)[Math.floor(cpu.length / 2)] ?? 0;
  const what = `findings over ${files.length} runs (${megabytes.toFixed(1)} MiB of results.json), CLI end to end`;
  const command = `node dist/bench/findings.js ${given ?? ''}`.trim();
  const target = (ms: number) => ({ text: '< 2000 ms (issue 44)', met: ms < 2000 });
  emit('findings', [
    { name: `${what}: wall`, value: t.medianMs, unit: 'ms', target: target(t.medianMs), command },
    { name: `${what}: CPU`, value: cpuMedian, unit: 'ms', target: target(cpuMedian), command },
  ]);
}

await main();
