import type { Command } from 'commander';
import { clauses } from '../../spec/clauses/index.js';
import { allCases } from '../../suites/index.js';

export function registerListCommand(program: Command): void {
  program
    .command('list')
    .description('list the shared cases and the clauses they check')
    .option('--json', 'as JSON', false)
    .action((flags: { json: boolean }) => {
      if (flags.json) {
        const cases = allCases.map(({ id, verb, title, clauses: ids, requires }) => ({ id, verb, title, clauses: ids, requires }));
        process.stdout.write(`${JSON.stringify({ cases, clauses }, null, 2)}\n`);
        return;
      }
      const lines = [`${allCases.length} cases:`];
      for (const c of allCases) lines.push(`  ${c.id}  ${c.title}`, `      checks: ${c.clauses.join(', ')}`);
      lines.push('', `${clauses.length} clauses:`);
      for (const c of clauses) lines.push(`  ${c.id}  [${c.level}]  ${c.statement}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
