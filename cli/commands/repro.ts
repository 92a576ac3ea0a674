import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { UserError } from '../../spec/errors.js';
import { writeFileAtomic } from '../../reports/atomic.js';
import { readResults } from '../../reports/read-results.js';
import type { RunResults } from '../../reports/results-schema.js';
import { MODULE_NAME, renderKernelRepro } from '../../reports/repro/kernel/module.js';
import { renderRepro } from '../../reports/repro/program.js';
import { parsePositiveInt } from '../options.js';
import { outputDir, outputFile } from '../output-paths.js';

/** What a reproducer is: a libibverbs program (user space) or a kernel module (the kernel verbs). */
export const REPRO_KINDS = ['program', 'module'] as const;
export type ReproKind = (typeof REPRO_KINDS)[number];

interface ReproFlags {
  from: string;
  out?: string;
  as?: ReproKind;
  device?: string;
  rounds?: number;
}

/** A recording made through the kernel adapter called the kernel verbs: its reproducer calls them too. */
export const defaultKind = (results: RunResults): ReproKind => (results.adapter.adapter === 'kernel' ? 'module' : 'program');

async function writeModule(results: RunResults, caseId: string, flags: ReproFlags): Promise<void> {
  if (flags.out === undefined) {
    throw new UserError(`a kernel reproducer is a module: ${MODULE_NAME}.c, Kbuild and a Makefile; name a directory for them with --out`, {
      hint: `rvt-conform repro ${caseId} --from ${flags.from} --out repro-dir && make -C repro-dir`,
    });
  }
  // A recording by no kernel device (the model's) names no device the module could open.
  if (flags.device === undefined && results.adapter.adapter !== 'kernel') {
    throw new UserError(`${flags.from} was recorded by the ${results.adapter.adapter} adapter on ${results.adapter.device.name}, which is no kernel device: name the one the module replays on with --device`, {
      hint: 'e.g. --device rvt_sim0 (rdmavt), --device rxe0 or --device siw0',
    });
  }
  const dir = await outputDir('--out', flags.out);
  const files = renderKernelRepro(results, caseId, flags.from, { ...(flags.device === undefined ? {} : { device: flags.device }), ...(flags.rounds === undefined ? {} : { rounds: flags.rounds }) });
  for (const [name, text] of Object.entries(files)) await writeFileAtomic(join(dir, name), text);
  process.stderr.write(`rvt-conform repro: wrote ${Object.keys(files).join(', ')} to ${dir}; build and run: make -C ${dir} && insmod ${join(dir, `${MODULE_NAME}.ko`)}; dmesg | grep rvt-repro\n`);
}

export async function reproCommand(caseId: string, flags: ReproFlags): Promise<void> {
  const results = await readResults(flags.from);
  if ((flags.as ?? defaultKind(results)) === 'module') return writeModule(results, caseId, flags);
  if (flags.device !== undefined) throw new UserError('--device names the device of a kernel module (--as module); the program takes its device as its argument');
  const out = flags.out === undefined ? undefined : await outputFile('--out', flags.out);
  const program = renderRepro(results, caseId, flags.from, flags.rounds === undefined ? {} : { rounds: flags.rounds });
  if (out === undefined) process.stdout.write(program);
  else await writeFileAtomic(out, program);
}

function parseKind(value: string): ReproKind {
  if (!(REPRO_KINDS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${REPRO_KINDS.join(', ')}`);
  return value as ReproKind;
}

export function registerReproCommand(program: Command): void {
  program
    .command('repro')
    .description(
      "write a standalone reproducer that replays a case's recorded calls and prints expected vs actual: a C program (libibverbs), " +
        'or, for a case run through the kernel adapter, a kernel module calling the kernel verbs',
    )
    .argument('<case>', "the case id, e.g. 'post_srq_recv/bad-wr-first'")
    .requiredOption('--from <results.json>', 'the results.json that recorded the case')
    .option('-o, --out <path>', 'the program: write it here instead of stdout; the module: the directory for its files (required)')
    .option('--as <kind>', `${REPRO_KINDS.join(' or ')}; default: module for a recording by the kernel adapter, else program`, parseKind)
    .option('--device <name>', "the module's default device= (default: the recorded one; required for a recording by no kernel device, e.g. the model's)")
    .option('--rounds <n>', "a concurrent case: how many times the reproducer runs its workload by default (the module's rounds=, the program's REPRO_ROUNDS; default 1)", parsePositiveInt)
    .addHelpText(
      'after',
      [
        '',
        'Program: cc -Wall -o repro repro.c -libverbs && ./repro [device-name]',
        `Module:  make -C DIR && insmod DIR/${MODULE_NAME}.ko [device=rxe0]; dmesg | grep rvt-repro   (init returns -EAGAIN: it never stays loaded)`,
        'A case the kernel run skipped (it would oops) has no calls there: record it on the model and write the module from that,',
        "  rvt-conform run --adapter model --case 'post_send/empty-list' --out m && rvt-conform repro post_send/empty-list --from m/results.json --as module --device rvt_sim0 --out DIR",
        "A concurrent case's reproducer runs its workload (the plan of the case's seed) with kthreads (module) or pthreads (program):",
        "  rvt-conform run --adapter model --case 'concurrent/resize-while-posting' --out m && rvt-conform repro concurrent/resize-while-posting --from m/results.json --as module --device rvt_sim0 --out DIR",
      ].join('\n'),
    )
    .action(async (caseId: string, flags: ReproFlags) => {
      await reproCommand(caseId, flags);
    });
}
