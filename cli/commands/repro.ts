import type { Command } from 'commander';
import { writeFileAtomic } from '../../reports/atomic.js';
import { readResults } from '../../reports/read-results.js';
import { renderRepro } from '../../reports/repro/program.js';
import { outputFile } from '../output-paths.js';

interface ReproFlags {
  from: string;
  out?: string;
}

export async function reproCommand(caseId: string, flags: ReproFlags): Promise<void> {
  const out = flags.out === undefined ? undefined : await outputFile('--out', flags.out);
  const program = renderRepro(await readResults(flags.from), caseId, flags.from);
  if (out === undefined) process.stdout.write(program);
  else await writeFileAtomic(out, program);
}

export function registerReproCommand(program: Command): void {
  program
    .command('repro')
    .description("write a standalone C program (libibverbs) that replays a case's recorded calls and prints expected vs actual")
    .argument('<case>', "the case id, e.g. 'post_srq_recv/bad-wr-first'")
    .requiredOption('--from <results.json>', 'the results.json that recorded the case')
    .option('-o, --out <file>', 'write the program here instead of stdout')
    .addHelpText('after', '\nBuild and run: cc -Wall -o repro repro.c -libverbs && ./repro [device-name]')
    .action(async (caseId: string, flags: ReproFlags) => {
      await reproCommand(caseId, flags);
    });
}
