import { type Command, InvalidArgumentError } from 'commander';
import { readResults } from '../../reports/read-results.js';
import { resultsFiles } from '../../reports/findings/inputs.js';
import { FINDINGS_FORMATS, type FindingsFormat, findingsFile, findingsSet, writeFindings } from '../../reports/findings/write.js';
import { reportSetDir } from '../output-paths.js';

interface FindingsFlags {
  out: string;
  format: FindingsFormat[];
}

function parseFindingsFormats(value: string): FindingsFormat[] {
  const formats = value.split(',').map((f) => f.trim());
  const unknown = formats.filter((f) => !(FINDINGS_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown format ${unknown.join(', ')}: expected a comma-separated list of ${FINDINGS_FORMATS.join(', ')}`);
  return [...new Set(formats)] as FindingsFormat[];
}

export async function findingsCommand(paths: readonly string[], flags: FindingsFlags): Promise<void> {
  const out = await reportSetDir('--out', flags.out);
  const files = resultsFiles(paths);
  const runs = await Promise.all(files.map(async (path) => ({ path, results: await readResults(path) })));
  const file = findingsFile(runs);
  const set = findingsSet(file, flags.format);
  await writeFindings(out, set);
  const known = file.findings.filter((f) => f.known).length;
  process.stdout.write(`${file.findings.length} finding(s), ${known} known, ${file.findings.length - known} new, from ${runs.length} run(s): ${[...set.keys()].filter((n) => n.startsWith('findings.')).map((n) => `${flags.out}/${n}`).join(', ')}\n`);
}

export function registerFindingsCommand(program: Command): void {
  program
    .command('findings')
    .description('the defects a set of runs shows, merged across runs and ranked by severity: where seen and not, evidence, reproducer and a draft report for linux-rdma')
    .argument('<results...>', 'results.json files, or folders searched for them')
    .option('--out <dir>', 'the folder to write findings.md, findings.json and the C reproducers into', 'findings')
    .option('--format <list>', `what to write, comma-separated (${FINDINGS_FORMATS.join(', ')})`, parseFindingsFormats, [...FINDINGS_FORMATS])
    .action(async (paths: string[], flags: FindingsFlags) => {
      await findingsCommand(paths, flags);
    });
}
