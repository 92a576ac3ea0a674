import type { Command } from 'commander';
import { modelAdapter } from '../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../adapters/mutants/index.js';
import { allCases } from '../../suites/index.js';
import { type MutationReport, runMutation } from '../../suites/mutation.js';

function renderTable(report: MutationReport): string {
  const width = Math.max(...report.mutants.map((m) => m.name.length));
  const lines = report.mutants.map((m) => {
    const verdict = m.killedBy.length > 0 ? 'killed  ' : 'SURVIVED';
    const by = m.killedBy.length > 0 ? `by ${m.killedBy.slice(0, 3).join(', ')}${m.killedBy.length > 3 ? ` (+${m.killedBy.length - 3})` : ''}` : m.description;
    return `${verdict}  ${m.name.padEnd(width)}  ${m.verb.padEnd(13)}  ${by}`;
  });
  const base = report.baseline.failed.length + report.baseline.errors.length === 0 ? 'reference model passes every case' : `reference model FAILS: ${[...report.baseline.failed, ...report.baseline.errors].join(', ')}`;
  lines.push('', base, `mutation score: ${report.killed}/${report.mutants.length} (${(report.score * 100).toFixed(1)} %)`);
  if (report.survived.length > 0) lines.push(`survivors (each is a missing case): ${report.survived.join(', ')}`);
  return lines.join('\n');
}

export function registerMutantsCommand(program: Command): void {
  program
    .command('mutants')
    .description('run the shared suites against every mutant of the model (plausible driver bugs) and show which cases kill each')
    .option('--json', 'print the report as JSON', false)
    .action(async (flags: { json: boolean }) => {
      const report = await runMutation(modelAdapter(), mutants, mutantAdapter, allCases);
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderTable(report)}\n`);
      const baselineClean = report.baseline.failed.length + report.baseline.errors.length === 0;
      process.exitCode = baselineClean && report.survived.length === 0 ? 0 : 1;
    });
}
