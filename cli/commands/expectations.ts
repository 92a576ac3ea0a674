import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../reports/atomic.js';
import { draftFromResults } from '../../reports/expectations/draft.js';
import { draftHeader, mergeDraft, newDraftFile } from '../../reports/expectations/draft-file.js';
import { readExpectationsText } from '../../reports/expectations/load.js';
import { readResults } from '../../reports/read-results.js';
import { UserError } from '../../spec/errors.js';
import { outputFile } from '../output-paths.js';

interface DraftFlags {
  from: string;
  out?: string;
  update?: string;
}

/** Writes the drafted (or merged) file: to --out, else back to the --update file, else stdout; what changed goes to stderr. */
export async function draftCommand(flags: DraftFlags): Promise<void> {
  const target = flags.out ?? flags.update;
  // A draft written over an existing file would drop its entries, reasons and all.
  if (flags.update === undefined && flags.out !== undefined && (await stat(flags.out).catch(() => undefined)) !== undefined) {
    throw new UserError(`-o ${flags.out} exists: a draft would replace its entries`, { hint: `merge into it instead: --update ${flags.out}` });
  }
  const out = target === undefined ? undefined : await outputFile(flags.out === undefined ? '--update' : '-o', target);
  const results = await readResults(flags.from);
  const draft = draftFromResults(results);
  const outcome =
    flags.update === undefined ? newDraftFile(draft, draftHeader(results, flags.from, draft.notes)) : mergeDraft(await readExpectationsText(flags.update), flags.update, draft, results);
  if (out === undefined) process.stdout.write(outcome.text);
  else await writeFileAtomic(out, outcome.text);
  const marked = outcome.marked.length > 0 ? `; ${outcome.marked.length} marked '# rvt-conform:' for a person to act on (${outcome.marked.join(', ')})` : '';
  const todo = outcome.added > 0 ? ": write each reason left TODO before a run uses the file" : '';
  for (const note of draft.notes) process.stderr.write(`rvt-conform: not drafted: ${note}\n`);
  process.stderr.write(`rvt-conform: ${outcome.added} entr${outcome.added === 1 ? 'y' : 'ies'} drafted${out === undefined ? '' : ` into ${target}`}${marked}${todo}\n`);
}

export function registerExpectationsCommand(program: Command): void {
  const expectations = program.command('expectations').description('expectations files (the known outcomes of an implementation)');
  expectations
    .command('draft')
    .description('draft expectations from a run: an entry for each binding clause it left failing or unverified, with the evidence and the link, the reason left for you to write')
    .requiredOption('--from <results.json>', 'the results.json of the run')
    .option('-o, --out <file>', 'write the draft here (a new file) instead of stdout')
    .option('--update <file>', 'merge into this expectations file (written back, or to -o): keeps its entries, adds the new ones and marks those that no longer apply')
    .action(async (flags: DraftFlags) => {
      await draftCommand(flags);
    });
}
