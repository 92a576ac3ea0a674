import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../reports/atomic.js';
import type { RunResults } from '../../reports/results-schema.js';
import { renderStability, stabilityOf } from '../../reports/stability.js';
import { startBusyLoops } from '../busy-load.js';
import { parseIntIn } from '../options.js';

/** A stability run repeats tiers in one boot: 20 runs of CI's tiers is most of a day under TCG. */
const MAX_REPEAT = 20;
/** More busy loops than a few cores' worth says nothing more about timing. */
const MAX_LOAD = 16;
import type { Command } from 'commander';
import { finishGuestResults } from '../../reports/guest-results.js';
import { bindingFailureLines } from '../../reports/summary.js';
import { ALL_FORMATS } from '../../reports/write.js';
import { type TierEntry, loadTiersFile } from '../tiers-file.js';
import { resolveKernel } from '../../vm/kernel.js';
import { KERNEL_OPTION_HELP } from '../kernel-option.js';
import { UserError } from '../../spec/errors.js';
import { RENDER_ON_HOST_ENV } from '../render-on-host.js';

/**
 * `rvt-conform tiers FILE`: several tiers of the shared suite (adapter on device) in one VM boot,
 * each gated by its own expectations and written to its own folder (one boot per kernel the tiers name). Exit 0 when every tier's gate
 * passed, 1 when one failed, 2 when one could not run (its reason is printed), and no tier is lost
 * to another: a VM that ends early leaves the later tiers reported as not run.
 */
export interface TiersOptions {
  kernel?: string;
  /** Run every tier this many times (a boot per run), each run into <out>/run-<k>, and report every case whose status changed. */
  repeat?: number;
  /** Host busy loops beside the VM while the tiers run. */
  load?: number;
}

/** A tier's runs when repeated: the same tier, its reports one folder down per run. */
function repeated(entries: readonly TierEntry[], repeat: number): { entry: TierEntry; tier: string; run: number }[] {
  if (repeat === 1) return entries.map((entry) => ({ entry, tier: entry.name, run: 1 }));
  return Array.from({ length: repeat }, (_, i) => entries.map((entry) => ({ entry: { ...entry, name: `${entry.name}.run-${i + 1}`, out: join(entry.out, `run-${i + 1}`) }, tier: entry.name, run: i + 1 }))).flat();
}

/** The guest's `run` arguments of a tier besides --adapter, --device and --out. */
export function tierRunArgs(entry: TierEntry): string[] {
  return [
    '--quiet',
    ...(entry.profile === undefined ? [] : ['--profile', entry.profile]),
    ...(entry.expectations === undefined ? [] : ['--expectations', entry.expectations]),
    ...(entry.timeout === undefined ? [] : ['--timeout', String(entry.timeout)]),
    ...(entry.kernelCoverage === true ? ['--kernel-coverage'] : []),
  ];
}

/** Each group of tiers in one boot of its kernel, in order: every tier's run, reported or not. */
async function bootEach(groups: readonly { choice: string | undefined; entries: TierEntry[] }[], kernels: ReadonlyMap<string | undefined, ReturnType<typeof resolveKernel>>) {
  const { runTiersInVm } = await import('../../guest/run-in-vm.js');
  const runs = [];
  for (const { choice, entries: group } of groups) {
    runs.push(
      ...(await runTiersInVm(
        group.map((entry) => ({
          name: entry.name,
          adapter: entry.adapter,
          device: entry.device,
          out: entry.out,
          args: tierRunArgs(entry),
        })),
        { [RENDER_ON_HOST_ENV]: '1' },
        kernels.get(choice),
      )),
    );
  }
  return runs;
}

export async function tiersCommand(file: string, options: TiersOptions = {}): Promise<number> {
  const defaultKernel = options.kernel;
  const repeat = options.repeat ?? 1;
  const load = options.load ?? 0;
  const listed = await loadTiersFile(file);
  const planned = repeated(listed, repeat);
  const entries = planned.map((p) => p.entry);
  for (const entry of entries) {
    if (entry.expectations !== undefined && !existsSync(entry.expectations)) {
      throw new UserError(`${file}: tier ${entry.name}: no expectations file ${entry.expectations}`);
    }
  }
  // One boot per kernel (and per run of a repeat, so a run is no longer than one boot may be), in the
  // file's order of first mention; every kernel is resolved before any boot.
  const groups = new Map<string, { choice: string | undefined; entries: TierEntry[] }>();
  for (const { entry, run } of planned) {
    const choice = entry.kernel ?? defaultKernel;
    const key = JSON.stringify([run, choice ?? null]);
    const group = groups.get(key) ?? { choice, entries: [] };
    group.entries.push(entry);
    groups.set(key, group);
  }
  const kernels = new Map([...groups.values()].map(({ choice }) => [choice, resolveKernel(choice)]));
  const busy = load > 0 ? startBusyLoops(load) : undefined;
  const runs = await bootEach([...groups.values()], kernels).finally(() => busy?.stop());
  let worst = 0;
  const reported = new Map<string, RunResults | undefined>();
  for (const run of runs) {
    const { results, annotations } = run.exitCode === undefined ? { results: undefined, annotations: [] } : await finishGuestResults(run.out, ALL_FORMATS);
    if (results === undefined) {
      process.stdout.write(`tier ${run.tier.name}: not run to its end (the VM stopped first; see the console log above)\n`);
      worst = 2;
      reported.set(run.tier.name, undefined);
      continue;
    }
    reported.set(run.tier.name, results);
    for (const line of annotations) process.stdout.write(`${line}\n`);
    process.stdout.write(`tier ${run.tier.name} (${run.tier.adapter} on ${run.tier.device}): ${results.gate.summary}; ${(results.run.durationMs / 1000).toFixed(1)} s; reports in ${run.out}\n`);
    for (const line of bindingFailureLines(results, run.out)) process.stdout.write(`${line}\n`);
    worst = Math.max(worst, run.exitCode === 0 ? 0 : run.exitCode === 1 ? 1 : 2);
  }
  if (repeat > 1) worst = Math.max(worst, await reportStability(listed, planned, reported, repeat, load));
  return worst;
}

/** Each tier's stability over its runs, written beside them (<out>/stability.json, .md) and summed up: 1 when a case changed status. */
async function reportStability(listed: readonly TierEntry[], planned: ReturnType<typeof repeated>, reported: ReadonlyMap<string, RunResults | undefined>, repeat: number, load: number): Promise<number> {
  let unstable = false;
  for (const entry of listed) {
    const runs = planned.filter((p) => p.tier === entry.name).map((p) => ({ run: p.run, out: p.entry.out, results: reported.get(p.entry.name) }));
    const stability = stabilityOf(entry.name, repeat, load, runs);
    await mkdir(entry.out, { recursive: true });
    await writeFileAtomic(join(entry.out, 'stability.json'), `${JSON.stringify(stability, null, 2)}\n`);
    await writeFileAtomic(join(entry.out, 'stability.md'), renderStability(stability));
    const missing = stability.missing.length === 0 ? '' : `, runs ${stability.missing.join(', ')} did not report`;
    process.stdout.write(`tier ${entry.name}: ${stability.stable ? 'STABLE' : 'UNSTABLE'} over ${stability.runs.length} of ${repeat} runs with ${load} busy loop(s)${missing}; ${stability.changed.length} case(s) changed status (${join(entry.out, 'stability.md')})\n`);
    for (const c of stability.changed) process.stdout.write(`  ${c.id}: ${c.statuses.map((x) => `${x.run}:${x.status}`).join(' ')}\n`);
    unstable ||= !stability.stable;
  }
  return unstable ? 1 : 0;
}

export function registerTiersCommand(program: Command): void {
  program
    .command('tiers')
    .description('run several tiers of the shared suite (adapter on device: ibverbs or kernel on rxe0, siw0, rvt_sim0) in one VM boot, each with its own expectations and reports')
    .argument('<file>', 'the tiers (YAML: tiers: [{name, adapter, device, profile?, expectations?, timeout?, out, kernel?}]; paths relative to the current directory)')
    .option('--kernel <kernel>', `for the tiers that name none: ${KERNEL_OPTION_HELP}`)
    .option('--repeat <n>', 'run every tier n times, each run in a boot of its own (reports in <out>/run-<k>), and report each case whose status changed (<out>/stability.md); exit 1 if one did', parseIntIn(1, MAX_REPEAT), 1)
    .option('--load <k>', 'start k busy loops on the host beside the VM while the tiers run (a stability run under load)', parseIntIn(0, MAX_LOAD), 0)
    .action(async (file: string, options: TiersOptions) => {
      process.exitCode = await tiersCommand(file, options);
    });
}
