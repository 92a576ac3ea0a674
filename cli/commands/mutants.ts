import type { Command } from 'commander';
import { mutants, mutationAdapters } from '../../adapters/mutants/index.js';
import { allCases } from '../../suites/index.js';
import { type MutationReport, runMutation } from '../../suites/mutation.js';
import { parseNonNegativeInt, parsePositiveInt } from '../options.js';
import { UserError } from '../../spec/errors.js';
import { killMatrix, runKernelMutation } from '../../guest/rdmavt-mutants.js';
import { expectationsOf } from './run.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';

function renderTable(report: MutationReport): string {
  const width = Math.max(...report.mutants.map((m) => m.name.length));
  const lines = report.mutants.map((m) => {
    const verdict = m.killedBy.length > 0 || m.fuzz?.killed ? 'killed  ' : 'SURVIVED';
    const fuzzed = m.fuzz === null ? '' : m.fuzz.killed ? 'fuzz: killed' : 'fuzz: -';
    const documented = m.killedByDocumented.length > 0 ? `documented: ${m.killedByDocumented.length}` : 'documented: -';
    const by = m.killedBy.length > 0 ? `by ${m.killedBy.slice(0, 3).join(', ')}${m.killedBy.length > 3 ? ` (+${m.killedBy.length - 3})` : ''}` : m.description;
    return `${verdict}  ${m.name.padEnd(width)}  ${m.verb.padEnd(13)}  ${`cases: ${m.killedBy.length}`.padEnd(10)}  ${documented.padEnd(14)}  ${fuzzed.padEnd(12)}  ${by}`;
  });
  const known = report.baseline.known.length === 0 ? '' : ` (but ${report.baseline.known.join(', ')}: documented clauses rdmavt breaks, expectations/model.yaml)`;
  const base = report.baseline.failed.length + report.baseline.errors.length === 0 ? `reference model passes every case${known}` : `reference model FAILS: ${[...report.baseline.failed, ...report.baseline.errors].join(', ')}`;
  lines.push('', base, `mutation score: ${report.killed}/${report.mutants.length} (${(report.score * 100).toFixed(1)} %)`);
  if (report.survived.length > 0) lines.push(`survivors (each is a missing case): ${report.survived.join(', ')}`);
  if (report.fuzzOnly.length > 0) lines.push(`killed only by the fuzzer (a case is missing for each): ${report.fuzzOnly.join(', ')}`);
  const byFuzz = report.mutants.filter((m) => m.fuzz?.killed).length;
  if (report.mutants.some((m) => m.fuzz !== null)) lines.push(`the fuzzer kills ${byFuzz}/${report.mutants.length} on its own`);
  return lines.join('\n');
}

export function registerMutantsCommand(program: Command): void {
  program
    .command('mutants')
    .description('run the shared suites against every mutant of the model (plausible driver bugs) and show which cases kill each')
    .option('--json', 'print the report as JSON', false)
    .option('--fuzz-runs <n>', 'also fuzz each mutant against the model with this many sequences (0: no fuzzing)', parseNonNegativeInt, 30)
    .option('--kernel [kernel]', `instead: build each seeded rdmavt bug (adapters/kernel/rdmavt-mutants) into rdmavt.ko and run the suite on it on rvt_sim0 in the VM; its value, when given, is ${KERNEL_OPTION_HELP.replace('the kernel the VM boots: ', '')}`, false)
    .option('--only <names>', 'with --kernel: only these mutants (comma-separated)', (v: string) => v.split(',').filter(Boolean))
    .option('--case <glob>', 'with --kernel: only the cases whose id (or verb) matches')
    .option('--tries <n>', 'with --kernel: run the suite up to this many times on a mutant no run has killed yet (a race is met with some probability)', parsePositiveInt, 1)
    .action(async (flags: { json: boolean; fuzzRuns: number; kernel: boolean | string; only?: string[]; case?: string; tries: number }) => {
      if (flags.kernel !== false) {
        const kernel = kernelOf(typeof flags.kernel === 'string' ? flags.kernel : undefined);
        const report = await runKernelMutation({
          ...(flags.only === undefined ? {} : { only: flags.only }),
          ...(flags.case === undefined ? {} : { caseGlob: flags.case }),
          ...(kernel === undefined ? {} : { kernel }),
          tries: flags.tries,
        });
        process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${killMatrix(report)}\n`);
        // A run that failed for the harness is not the driver's doing: exit 2, like other setup problems.
        process.exitCode = report.undecided.length > 0 ? 2 : report.survived.length === 0 ? 0 : 1;
        return;
      }
      if (flags.only !== undefined || flags.case !== undefined || flags.tries !== 1) throw new UserError('--only, --case and --tries are for --kernel', { hint: 'add --kernel' });
      const model = await expectationsOf(undefined, 'model');
      const known = (status: string) => new Set((model?.entries ?? []).flatMap((e) => (e.status === status && e.id !== undefined ? [e.id] : [])));
      const { reference, adapterOf } = mutationAdapters();
      const report = await runMutation(reference, mutants, adapterOf, allCases, { knownFailures: known('fail'), knownErrors: known('error'), ...(flags.fuzzRuns > 0 ? { fuzzRuns: flags.fuzzRuns } : {}) });
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderTable(report)}\n`);
      const baselineClean = report.baseline.failed.length + report.baseline.errors.length === 0;
      process.exitCode = baselineClean && report.survived.length === 0 ? 0 : 1;
    });
}
