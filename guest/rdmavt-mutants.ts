import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import { isFatalLine } from '../adapters/kernel/kmsg.js';
import { RDMAVT_SOURCE_ENV } from '../vm/rdmavt-env.js';
import { type GuestKernel, resolveKernel } from '../vm/kernel.js';
import { rvtcModule } from '../vm/rvtc.js';
import { kernelSourceFolder } from '../vm/devices.js';
import { guestNode } from '../vm/guest-snapshot.js';
import { projectRoot, vmCacheDir } from '../vm/project-root.js';
import { runInVm } from '../vm/run.js';

/** The seeded rdmavt bugs: one patch each against drivers/infiniband/sw/rdmavt of 6.1. */
export const RDMAVT_MUTANTS_DIR = 'adapters/kernel/rdmavt-mutants';

export interface RdmavtMutant {
  name: string;
  /** The patch's first line: what the bug is. */
  description: string;
  patch: string;
}

/** The mutants, in file order; `NN-name.patch` names each. */
export function rdmavtMutants(): RdmavtMutant[] {
  const dir = join(projectRoot(), RDMAVT_MUTANTS_DIR);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.patch'))
    .sort()
    .map((file) => {
      const patch = join(dir, file);
      const first = readFileSync(patch, 'utf8').split('\n')[0] ?? '';
      return { name: file.replace(/^\d+-/, '').replace(/\.patch$/, ''), description: first.replace(/^rdmavt mutant [\w-]+: /, ''), patch };
    });
}

/**
 * How one run of the shared suite on rvt_sim0 ended, case by case: the status, and for a failed
 * case the clauses it failed ("fail post_send.state.bad_wr"), so that a case the stock rdmavt
 * already fails (a documented clause rdmavt breaks) still kills a mutant that fails it otherwise.
 */
export type CaseStatuses = Record<string, string>;

export interface KernelMutantResult {
  name: string;
  description: string;
  /** Cases that passed on the stock rdmavt and fail (or error) on the mutant. */
  killedBy: string[];
  /** How many runs of the suite it took: more than one only for a mutant the first run did not kill (`tries`). */
  runs?: number;
  /** Set when the mutant took the guest's kernel down (oops, panic) before the suite ended: why. */
  runError?: string;
  /** Set when the run failed for a reason that is not the mutant's (the harness, the host): neither killed nor survived. */
  harnessError?: string;
  durationMs: number;
}

export interface KernelMutationReport {
  baseline: CaseStatuses;
  mutants: KernelMutantResult[];
  killed: number;
  survived: string[];
  /** Mutants whose run failed for a harness reason: not decided, so the score cannot claim them. */
  undecided: string[];
}

/** The suite left no results because the mutant took the kernel down (the console log shows it). */
class GuestWentDown extends Error {}

/** A case outcome that counts as a kill: a failed check, a case that could not run to its end, or an expected failure of the stock rdmavt that passes. */
const KILLING = new Set(['fail', 'error', 'xpass']);

/** The shared suite on rvt_sim0 in the VM, on the stock rdmavt or on one built from `rdmavtSrc`. */
async function suiteOnRvtSim(kernel: GuestKernel, workDir: string, out: string, rdmavtSrc: string | undefined, label: string, caseGlob: string | undefined): Promise<CaseStatuses> {
  const node = await guestNode(kernel);
  // The stock rdmavt's expectations skip the cases that oops it (post_send/empty-list): without them
  // every run, baseline and mutant alike, would end at that oops and no later case could kill.
  const expectations = join(projectRoot(), 'expectations/kernel-rdmavt.yaml');
  const args = ['run', '--adapter', 'kernel', '--device', 'rvt_sim0', '--profile', 'rdmavt', '--quiet', '--timeout', '120', '--expectations', expectations, '--out', out];
  const result = await runInVm({
    command: [...node.command, ...args, ...(caseGlob === undefined ? [] : ['--case', caseGlob])],
    workDir,
    kernel,
    modules: [await rvtcModule(kernel)],
    device: 'rvt_sim0',
    deviceOptions: rdmavtSrc === undefined ? {} : { rdmavtSrc },
    env: { ...node.env, ...(rdmavtSrc === undefined ? {} : { [RDMAVT_SOURCE_ENV]: label }) },
    timeoutMs: 30 * 60 * 1000,
    stdout: process.stderr,
  });
  const file = join(workDir, out, 'results.json');
  if (!existsSync(file)) {
    const why = `the suite left no results (guest status ${result.exitCode}; console log ${result.consoleLogPath})`;
    const consoleLog = readFileSync(result.consoleLogPath, 'utf8');
    // Only the kernel's own words for going down make a run without results a kill.
    const down = consoleLog.split('\n').find(isFatalLine);
    throw down === undefined ? new Error(why) : new GuestWentDown(`${why}: ${down.trim()}`);
  }
  const results = JSON.parse(readFileSync(file, 'utf8')) as { cases: { id: string; status: string; checks?: { clause: string; status: string }[] }[] };
  return Object.fromEntries(results.cases.map((c) => [c.id, verdictOf(c.status, c.checks ?? [])]));
}

function verdictOf(status: string, checks: readonly { clause: string; status: string }[]): string {
  const failed = [...new Set(checks.filter((k) => k.status === 'fail').map((k) => k.clause))].sort();
  return failed.length === 0 ? status : `${status} ${failed.join(' ')}`;
}

/** The cases that kill a mutant: they fail (or error) on it, and not as they do on the stock rdmavt. */
export function killers(baseline: CaseStatuses, mutant: CaseStatuses): string[] {
  const status = (verdict: string | undefined) => (verdict ?? 'pass').split(' ')[0] ?? 'pass';
  return Object.keys(mutant).filter((id) => KILLING.has(status(mutant[id])) && mutant[id] !== baseline[id]);
}

/**
 * Runs the suite on a mutant until a case kills it, `tries` runs at most: a race (the concurrent
 * mutants: a lost WQE, a stale count) is met in a run with some probability, not every time.
 */
export async function untilKilled(tries: number, baseline: CaseStatuses, run: () => Promise<CaseStatuses>): Promise<{ killedBy: string[]; runs: number }> {
  let killedBy: string[] = [];
  let runs = 0;
  while (runs < tries && killedBy.length === 0) {
    runs += 1;
    killedBy = killers(baseline, await run());
  }
  return { killedBy, runs };
}

/**
 * Builds each seeded bug into rdmavt.ko (a copy of 6.1's rdmavt with the patch applied), runs the
 * shared suite on rvt_sim0 with it, and reports which cases kill it: those that fail or error on
 * the mutant other than on the stock rdmavt. A mutant no case kills is a missing case.
 */
export async function runKernelMutation(
  options: { only?: readonly string[]; caseGlob?: string; tries?: number; say?: (line: string) => void; kernel?: GuestKernel } = {},
): Promise<KernelMutationReport> {
  const kernel = options.kernel ?? resolveKernel();
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const all = rdmavtMutants();
  const unknown = (options.only ?? []).filter((n) => !all.some((m) => m.name === n));
  if (unknown.length > 0) throw new UserError(`no rdmavt mutant named ${unknown.join(', ')}`, { hint: `choose from: ${all.map((m) => m.name).join(', ')}` });
  const chosen = options.only === undefined ? all : all.filter((m) => options.only?.includes(m.name));
  const stock = await kernelSourceFolder(kernel, vmCacheDir(), 'drivers/infiniband/sw/rdmavt');
  const workDir = await mkdtemp(join(projectRoot(), '.mutants-kernel-'));
  try {
    say('rdmavt mutants: the shared suite on the stock rdmavt first (the baseline)');
    const baseline = await suiteOnRvtSim(kernel, workDir, 'baseline', undefined, 'stock', options.caseGlob);
    const results: KernelMutantResult[] = [];
    for (const mutant of chosen) {
      const started = performance.now();
      const src = join(workDir, `src-${mutant.name}`);
      await cp(stock, src, { recursive: true });
      const applied = await execa('patch', ['-s', '-p1', '-d', src, '-i', mutant.patch], { reject: false, all: true });
      if (applied.exitCode !== 0) throw new UserError(`the patch of mutant ${mutant.name} does not apply to rdmavt 6.1:\n${applied.all ?? ''}`);
      say(`rdmavt mutants: ${mutant.name} (${mutant.description})`);
      let killedBy: string[] = [];
      let runs = 0;
      let runError: string | undefined;
      let harnessError: string | undefined;
      try {
        ({ killedBy, runs } = await untilKilled(options.tries ?? 1, baseline, () =>
          suiteOnRvtSim(kernel, workDir, `mutant-${mutant.name}`, src, `mutant ${mutant.name}`, options.caseGlob),
        ));
      } catch (error) {
        if (error instanceof UserError && /does not build|failed:/.test(error.message)) throw error;
        // A mutant that takes the guest's kernel down is killed, by the run itself; any other
        // failed run says nothing about the mutant.
        if (error instanceof GuestWentDown) runError = error.message;
        else harnessError = (error as Error).message;
      }
      await rm(src, { recursive: true, force: true });
      results.push({
        name: mutant.name,
        description: mutant.description,
        killedBy,
        ...(runs > 1 ? { runs } : {}),
        ...(runError === undefined ? {} : { runError }),
        ...(harnessError === undefined ? {} : { harnessError }),
        durationMs: Math.round(performance.now() - started),
      });
    }
    const undecided = results.filter((r) => r.harnessError !== undefined).map((r) => r.name);
    const survived = results.filter((r) => r.killedBy.length === 0 && r.runError === undefined && r.harnessError === undefined).map((r) => r.name);
    return { baseline, mutants: results, killed: results.length - survived.length - undecided.length, survived, undecided };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The kill matrix: one row per case that kills any mutant, one column per mutant. */
export function killMatrix(report: KernelMutationReport): string {
  const cases = [...new Set(report.mutants.flatMap((m) => m.killedBy))].sort();
  const cols = report.mutants.map((m, i) => String(i + 1).padStart(2));
  const width = Math.max(4, ...cases.map((c) => c.length));
  const lines = [`${'case'.padEnd(width)}  ${cols.join(' ')}`];
  for (const id of cases) lines.push(`${id.padEnd(width)}  ${report.mutants.map((m) => (m.killedBy.includes(id) ? ' X' : ' .')).join(' ')}`);
  const verdict = (m: KernelMutantResult) => (m.harnessError ? 'UNDECIDED' : m.killedBy.length > 0 || m.runError ? 'killed   ' : 'SURVIVED ');
  const why = (m: KernelMutantResult) => (m.runError ? `; the guest went down: ${m.runError}` : m.harnessError ? `; the run failed, not for the mutant: ${m.harnessError}` : '');
  lines.push('', ...report.mutants.map((m, i) => `${String(i + 1).padStart(2)} ${verdict(m)} ${m.name} (${m.killedBy.length} case(s)${m.runs === undefined ? '' : ` in ${m.runs} runs`}${why(m)}, ${(m.durationMs / 1000).toFixed(0)} s)`));
  const decided = report.mutants.length - report.undecided.length;
  lines.push('', `rdmavt mutation score: ${report.killed}/${decided}${report.undecided.length > 0 ? ` (${report.undecided.length} not decided: run them again)` : ''}`);
  if (report.survived.length > 0) lines.push(`survivors (each is a missing case): ${report.survived.join(', ')}`);
  if (report.undecided.length > 0) lines.push(`not decided (the run failed for a harness reason): ${report.undecided.join(', ')}`);
  return lines.join('\n');
}
