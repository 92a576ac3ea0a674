import { readFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { AdapterInfo } from '../../adapters/adapter.js';
import { HOSTILE_SOURCE, buildHostile, runHostileInVm } from '../../guest/hostile-in-vm.js';
import { buildResults } from '../../reports/build.js';
import type { RunResults } from '../../reports/results-schema.js';
import { renderSummary } from '../../reports/summary.js';
import { writeReports } from '../../reports/write.js';
import { hostileUserClauses } from '../../spec/clauses/hostile-user.js';
import { UserError } from '../../spec/errors.js';
import { HOSTILE_SCENARIOS, type HostileScenario, hostileRunCommand, scenarioCase } from '../../suites/hostile/scenarios.js';
import { type Expectation, loadExpectations } from '../../reports/expectations/load.js';
import { hostileCaseRun } from '../../suites/hostile/verdict.js';
import { parseKernelConfig } from '../../vm/kernel-config.js';
import { resolveKernel } from '../../vm/kernel.js';
import { projectRoot } from '../../vm/project-root.js';
import type { VmRunInfo } from '../../vm/run-info.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';
import { parseTimeoutSeconds } from '../options.js';
import { reportSetDir } from '../output-paths.js';

export interface HostileOptions {
  vm?: boolean;
  expectations?: string;
  kernel?: string;
  out: string;
  scenario?: HostileScenario[];
  timeout: number;
}

/** The folder of the report set that holds the program, its source and what the guest left of each scenario. */
export const SCENARIO_DIR = 'scenarios';

/**
 * Who the scenarios ran against: rdmavt on rvt_sim0, reached from user space through ipathverbs.
 * Whether the kernel had KASAN says what a clean log is worth: without it an overrun shows only
 * where it faults.
 */
export function hostileAdapterInfo(vm: VmRunInfo, kasan: boolean): AdapterInfo {
  return {
    adapter: 'hostile',
    implementation: `rdmavt (the booted kernel's, ${kasan ? 'with KASAN' : 'without KASAN: an overrun shows only where it faults'}) on rvt_sim0 through rdma-core's ipathverbs, its shared receive rings written by a hostile process`,
    version: vm.kernel.release,
    layer: 'libibverbs',
    device: { name: 'rvt_sim0', driver: 'rdmavt', provider: 'ipathverbs', kernel: vm.kernel.release },
    capabilities: [],
    defaultProfile: 'documented',
    completionWaitMs: 3000,
  };
}

/** The scenarios' verdicts as one run's results: the report set every other run writes, judged by the hostile clauses alone. */
/** Reads --expectations before the boot: a bad file costs nothing (exit 2, file:line). Ids are the hostile clauses' and scenarios'. */
export async function hostileExpectations(file: string): Promise<{ file: string; entries: Expectation[] }> {
  const knownIds = new Set([...hostileUserClauses.map((c) => c.id), ...HOSTILE_SCENARIOS.map((s) => scenarioCase(s).id)]);
  return { file, entries: await loadExpectations(file, { knownIds, today: new Date().toISOString().slice(0, 10) }) };
}

export function hostileResults(
  runs: Parameters<typeof buildResults>[0]['runs'],
  vm: VmRunInfo,
  kasan: boolean,
  startedAt: Date,
  filter: string | null,
  expectations?: { file: string; entries: Expectation[] },
): RunResults {
  // The clauses of the scenarios chosen: one left out by --scenario is not unverified.
  const chosen = new Set(runs.flatMap((run) => run.case.clauses));
  const results = buildResults({
    info: hostileAdapterInfo(vm, kasan),
    profile: 'documented',
    seed: 0,
    filter,
    clauses: hostileUserClauses.filter((c) => chosen.has(c.id)),
    runs,
    startedAt,
    finishedAt: new Date(),
    interrupted: false,
    snapshot: null,
    ...(expectations === undefined ? {} : { expectations }),
  });
  // The verdict is the guest kernel's, not this host's.
  return { ...results, environment: { ...results.environment, kernel: vm.kernel.release, vm } };
}

export async function hostileCommand(options: HostileOptions): Promise<number> {
  if (!options.vm) {
    throw new UserError('hostile runs in the VM only: it writes outside the contract into the kernel\'s rings, and may take the kernel down', { hint: 'rvt-conform hostile --vm [--kernel K]' });
  }
  const expectations = options.expectations === undefined ? undefined : await hostileExpectations(options.expectations);
  const kernel = kernelOf(options.kernel) ?? resolveKernel();
  const kasan = parseKernelConfig(readFileSync(kernel.config, 'utf8')).get('CONFIG_KASAN') === 'y';
  const out = await reportSetDir('--out', options.out);
  const scenarios = options.scenario ?? [...HOSTILE_SCENARIOS];
  const dir = join(out, SCENARIO_DIR);
  const binary = await buildHostile(dir);
  // The reproducer beside its reports: a reader needs nothing of rvt-conform to build and run it.
  await copyFile(join(projectRoot(), HOSTILE_SOURCE), join(dir, 'hostile.c'));
  const startedAt = new Date();
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const { ends, vm } = await runHostileInVm({ binary, scenarios: scenarios.map((s) => s.name), dir, timeoutS: options.timeout, kernel, say });
  const runs = ends.map((end) => {
    const scenario = scenarios.find((s) => s.name === end.scenario) as HostileScenario;
    return hostileCaseRun(scenario, end, options.timeout);
  });
  const filter = options.scenario === undefined ? null : scenarios.map((s) => s.name).join(',');
  const results = hostileResults(runs, vm, kasan, startedAt, filter, expectations);
  await writeReports(out, results);
  process.stdout.write(`${renderSummary(results, out)}\n`);
  for (const end of ends) process.stdout.write(`${end.stdout.trim() || `hostile: ${end.scenario}: no line (status ${end.status ?? 'none: the VM ended'})`}\n`);
  process.stdout.write(`reproduce: ${hostileRunCommand(join(dir, 'hostile.c'), 'SCENARIO')} (as root, rvt_sim loaded with qib_id=1)\n`);
  return results.gate.passed ? 0 : 1;
}

function parseScenarios(value: string): HostileScenario[] {
  return value.split(',').map((name) => {
    const scenario = HOSTILE_SCENARIOS.find((s) => s.name === name.trim());
    if (scenario === undefined) throw new InvalidArgumentError(`no scenario ${name}: choose from ${HOSTILE_SCENARIOS.map((s) => s.name).join(', ')}`);
    return scenario;
  });
}

export function registerHostileCommand(program: Command): void {
  program
    .command('hostile')
    .description(
      "a process writes outside the contract into the receive rings rdmavt shares with ipathverbs (num_sge past max_sge, head and tail out of range, a WQE rewritten while consumed), then the kernel consumes, copies and frees them; each scenario fails on a kernel splat or a hang (results.json and reports like run's)",
    )
    .option('--vm', 'run in a QEMU VM on rvt_sim0 (required: the scenarios may take the kernel down)')
    .option('--kernel <kernel>', KERNEL_OPTION_HELP)
    .option('--out <dir>', 'the report folder', 'conformance-report/hostile')
    .option('-e, --expectations <file>', 'known outcomes of the booted rdmavt (YAML, ids hostile_user/<scenario> or hostile_user.*): an expected splat does not fail the gate, an unexpected pass does; draft one with `expectations draft --from <out>/results.json`')
    .option('--scenario <names>', `only these scenarios, comma-separated (${HOSTILE_SCENARIOS.map((s) => s.name).join(', ')})`, parseScenarios)
    .option('--timeout <seconds>', 'per scenario: the program is stopped after this, and the scenario fails as a hang', parseTimeoutSeconds(600), 60)
    .action(async (options: HostileOptions) => {
      process.exitCode = await hostileCommand(options);
    });
}
