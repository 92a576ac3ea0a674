import { existsSync } from 'node:fs';
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
export async function tiersCommand(file: string, defaultKernel?: string): Promise<number> {
  const entries = await loadTiersFile(file);
  for (const entry of entries) {
    if (entry.expectations !== undefined && !existsSync(entry.expectations)) {
      throw new UserError(`${file}: tier ${entry.name}: no expectations file ${entry.expectations}`);
    }
  }
  // One boot per kernel, in the file's order of first mention; every kernel is resolved before any boot.
  const byKernel = new Map<string | undefined, TierEntry[]>();
  for (const entry of entries) {
    const choice = entry.kernel ?? defaultKernel;
    byKernel.set(choice, [...(byKernel.get(choice) ?? []), entry]);
  }
  const kernels = new Map([...byKernel.keys()].map((choice) => [choice, resolveKernel(choice)]));
  const { runTiersInVm } = await import('../../guest/run-in-vm.js');
  const runs = [];
  for (const [choice, group] of byKernel) {
    runs.push(
      ...(await runTiersInVm(
        group.map((entry) => ({
          name: entry.name,
          adapter: entry.adapter,
          device: entry.device,
          out: entry.out,
          args: [
            '--quiet',
            ...(entry.profile === undefined ? [] : ['--profile', entry.profile]),
            ...(entry.expectations === undefined ? [] : ['--expectations', entry.expectations]),
            ...(entry.timeout === undefined ? [] : ['--timeout', String(entry.timeout)]),
          ],
        })),
        { [RENDER_ON_HOST_ENV]: '1' },
        kernels.get(choice),
      )),
    );
  }
  let worst = 0;
  for (const run of runs) {
    const { results, annotations } = run.exitCode === undefined ? { results: undefined, annotations: [] } : await finishGuestResults(run.out, ALL_FORMATS);
    if (results === undefined) {
      process.stdout.write(`tier ${run.tier.name}: not run to its end (the VM stopped first; see the console log above)\n`);
      worst = 2;
      continue;
    }
    for (const line of annotations) process.stdout.write(`${line}\n`);
    process.stdout.write(`tier ${run.tier.name} (${run.tier.adapter} on ${run.tier.device}): ${results.gate.summary}; ${(results.run.durationMs / 1000).toFixed(1)} s; reports in ${run.out}\n`);
    for (const line of bindingFailureLines(results, run.out)) process.stdout.write(`${line}\n`);
    worst = Math.max(worst, run.exitCode === 0 ? 0 : run.exitCode === 1 ? 1 : 2);
  }
  return worst;
}

export function registerTiersCommand(program: Command): void {
  program
    .command('tiers')
    .description('run several tiers of the shared suite (adapter on device: ibverbs or kernel on rxe0, siw0, rvt_sim0) in one VM boot, each with its own expectations and reports')
    .argument('<file>', 'the tiers (YAML: tiers: [{name, adapter, device, profile?, expectations?, timeout?, out, kernel?}]; paths relative to the current directory)')
    .option('--kernel <kernel>', `for the tiers that name none: ${KERNEL_OPTION_HELP}`)
    .action(async (file: string, options: { kernel?: string }) => {
      process.exitCode = await tiersCommand(file, options.kernel);
    });
}
