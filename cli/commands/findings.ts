import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { readResults } from '../../reports/read-results.js';
import { type Expectation, loadExpectations } from '../../reports/expectations/load.js';
import { resultsFiles } from '../../reports/findings/inputs.js';
import { proofWords } from '../../reports/findings/markdown.js';
import { type ProofPlan, type ReproRun, planProofs, proofOf, recordProofs, unproved } from '../../reports/findings/prove.js';
import { type FindingsFile, type Proof, Severity } from '../../reports/findings/schema.js';
import { FINDINGS_FORMATS, type FindingsFormat, findingsFile, findingsSet, writeFindings } from '../../reports/findings/write.js';
import { UserError } from '../../spec/errors.js';
import { isVmDevice } from '../../vm/devices.js';
import { type GuestKernel, resolveKernel } from '../../vm/kernel.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';
import { parseTimeoutSeconds } from '../options.js';
import { reportSetDir } from '../output-paths.js';
import { kernelLines, programStatus, reproduceInVm, reproducerAt } from './vm-repro.js';

interface FindingsFlags {
  out: string;
  format: FindingsFormat[];
  /** true: every severity. */
  reproduce?: Severity[] | true;
  vm?: boolean;
  kernel?: string;
  timeout: number;
  expectations?: string;
}

function parseFindingsFormats(value: string): FindingsFormat[] {
  const formats = value.split(',').map((f) => f.trim());
  const unknown = formats.filter((f) => !(FINDINGS_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown format ${unknown.join(', ')}: expected a comma-separated list of ${FINDINGS_FORMATS.join(', ')}`);
  return [...new Set(formats)] as FindingsFormat[];
}

function parseSeverities(value: string): Severity[] {
  const severities = value.split(',').map((s) => s.trim());
  const unknown = severities.filter((s) => !Severity.safeParse(s).success);
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown severity ${unknown.join(', ')}: expected a comma-separated list of ${Severity.options.join(', ')}`);
  return [...new Set(severities)] as Severity[];
}

/** Runs one planned reproducer: in the VM, or (tests) anything that answers as a boot would. */
export type ReproRunner = (plan: ProofPlan, dir: string) => Promise<ReproRun>;

/** The VM's runner: `vm --run-repro`'s own build and boot, the guest's output on stderr as it comes. */
export function vmRunner(options: { kernel: GuestKernel | undefined; timeoutMs: number; workDir: string }): ReproRunner {
  return async (plan, dir) => {
    const run = await reproduceInVm(reproducerAt(dir), { device: isVmDevice(plan.device) ? plan.device : undefined, kernel: options.kernel, timeoutMs: options.timeoutMs, workDir: options.workDir, echo: process.stderr });
    const status = programStatus(run.log);
    return { exitCode: run.exitCode, ...(status === undefined ? {} : { programStatus: status }), durationMs: run.durationMs, kernel: run.kernel.release, device: run.device, log: [...kernelLines(run.log), ...run.consoleSplat] };
  };
}

/**
 * Proves the findings of these severities by their reproducers, one boot each, in the order
 * planProofs gives; says each outcome as it comes; the findings with the proofs recorded.
 */
export async function proveFindings(
  file: FindingsFile,
  out: string,
  options: { severities: ReadonlySet<Severity>; seenOn: string | undefined; entries: readonly Expectation[] },
  run: ReproRunner,
  say: (line: string) => void,
): Promise<FindingsFile> {
  const plans = planProofs(file, options.severities, options.seenOn);
  const asked = file.findings.filter((f) => options.severities.has(f.severity)).length;
  const planned = new Set(plans.map((p) => p.finding)).size;
  if (planned < asked) say(`findings: ${asked - planned} finding(s) of the severities asked were not seen on ${options.seenOn ?? 'this kernel'} (or have no reproducer to run): not run`);
  const proofs: Array<{ plan: ProofPlan; proof: Proof }> = [];
  for (const [index, plan] of plans.entries()) {
    const finding = file.findings.find((f) => f.id === plan.finding);
    if (finding === undefined) continue;
    const proof = proofOf(finding.severity, await run(plan, join(out, plan.dir)));
    proofs.push({ plan, proof });
    say(`findings: ${index + 1}/${plans.length} ${finding.id} ${plan.dir}: ${proofWords(proof).replace(/\*\*/g, '')}`);
  }
  return recordProofs(file, proofs, options.entries);
}

/** An expectations file for the reproducers: its ids are the runs' case and clause ids. */
async function reproduceExpectations(file: string, runs: ReadonlyArray<{ results: { cases: Array<{ id: string }>; clauses: Array<{ id: string }> } }>): Promise<Expectation[]> {
  const knownIds = new Set(runs.flatMap(({ results }) => [...results.cases.map((c) => c.id), ...results.clauses.map((c) => c.id)]));
  return loadExpectations(file, { knownIds, today: new Date().toISOString().slice(0, 10) });
}

export async function findingsCommand(paths: readonly string[], flags: FindingsFlags, runner?: ReproRunner): Promise<number> {
  if (flags.reproduce !== undefined && flags.vm !== true && runner === undefined) {
    throw new UserError('--reproduce runs each reproducer in a VM of its own: add --vm', { hint: 'rvt-conform findings DIR --reproduce --vm [--kernel K]' });
  }
  if (flags.reproduce === undefined && (flags.vm === true || flags.expectations !== undefined)) throw new UserError('--vm and --expectations are for --reproduce');
  const kernel = kernelOf(flags.kernel);
  const out = await reportSetDir('--out', flags.out);
  const files = resultsFiles(paths);
  const runs = await Promise.all(files.map(async (path) => ({ path, results: await readResults(path) })));
  const entries = flags.expectations === undefined ? [] : await reproduceExpectations(flags.expectations, runs);
  let file = findingsFile(runs);
  let set = findingsSet(file, flags.format);
  // the reproducers run from their folders: the set is written first, then again with the proofs
  await writeFindings(out, set);
  if (flags.reproduce !== undefined) {
    const severities = new Set(flags.reproduce === true ? Severity.options : flags.reproduce);
    // the kernel that boots, resolved before any boot (the default: the newest installed one)
    const booted = runner === undefined ? (kernel ?? resolveKernel()) : kernel;
    const run = runner ?? vmRunner({ kernel: booted, timeoutMs: flags.timeout * 1000, workDir: out });
    file = await proveFindings(file, out, { severities, seenOn: booted?.release, entries }, run, (line) => process.stderr.write(`${line}\n`));
    set = findingsSet(file, flags.format);
    await writeFindings(out, set);
  }
  const known = file.findings.filter((f) => f.known).length;
  process.stdout.write(`${file.findings.length} finding(s), ${known} known, ${file.findings.length - known} new, from ${runs.length} run(s): ${[...set.keys()].filter((n) => n.startsWith('findings.')).map((n) => `${flags.out}/${n}`).join(', ')}\n`);
  if (flags.reproduce === undefined) return 0;
  const failed = unproved(file);
  const ran = file.findings.flatMap((f) => f.reproducers.filter((r) => r.proof !== undefined)).length;
  process.stdout.write(`${ran} reproducer(s) run in the VM: ${failed.length === 0 ? 'every finding shown by its reproducer, or excused' : `${failed.length} finding(s) not shown by their reproducer: ${failed.map((f) => `${f.id} (${f.title})`).join('; ')}`}\n`);
  return failed.length === 0 ? 0 : 1;
}

export function registerFindingsCommand(program: Command): void {
  program
    .command('findings')
    .description('the defects a set of runs shows, merged across runs and ranked by severity: where seen and not, evidence, reproducer and a draft report for linux-rdma')
    .argument('<results...>', 'results.json files, or folders searched for them')
    .option('--out <dir>', 'the folder to write findings.md, findings.json and a folder per finding with its reproducers into', 'findings')
    .option('--format <list>', `what to write, comma-separated (${FINDINGS_FORMATS.join(', ')})`, parseFindingsFormats, [...FINDINGS_FORMATS])
    .option(
      '--reproduce [severities]',
      `prove the findings (of these severities, comma-separated: ${Severity.options.join(', ')}; default all) by their reproducers, each in a VM boot of its own as vm --run-repro runs it, on the device it was seen on; the outcome goes into findings.json and .md; exit 1 when one does not show its finding`,
      parseSeverities,
    )
    .option('--vm', 'run the reproducers in a QEMU VM (required with --reproduce)')
    .option('--kernel <kernel>', KERNEL_OPTION_HELP)
    .option('--timeout <seconds>', 'per reproducer: the VM is killed after this (build and boot included)', parseTimeoutSeconds(3600), 300)
    .option('-e, --expectations <file>', "why a reproducer cannot show its finding: an entry for the case with status not-observable (and a reason) excuses it from the exit status")
    .action(async (paths: string[], flags: FindingsFlags) => {
      process.exitCode = await findingsCommand(paths, flags);
    });
}
