import { isSplatLine } from '../../adapters/kernel/kmsg.js';
import type { Profile } from '../../adapters/adapter.js';
import type { Expectation } from '../expectations/load.js';
import { conditionsHold } from '../expectations/match.js';
import type { FindingsFile, FindingsRun, Proof, ReproOutcome, Reproducer, Severity } from './schema.js';

/** One reproducer to run in a boot of its own: the folder `findings` wrote it into, and the device it was seen on. */
export interface ProofPlan {
  finding: string;
  /** Which of the finding's reproducers. */
  reproducer: number;
  dir: string;
  device: string;
  /** Its finding takes the kernel down (an oops, a lockup): its boot ends with it. */
  kernelDown: boolean;
}

/** What one boot of a reproducer left (cli/commands/vm-repro.ts's ReproVmRun, as plain data). */
export interface ReproRun {
  /** The guest's status (VERDICT_EXIT), or undefined when the VM ended first. */
  exitCode: number | undefined;
  /** A program's own exit status (128 + n: killed by signal n; 124: stopped as hung), when it printed one. */
  programStatus?: number;
  durationMs: number;
  kernel: string;
  device: string;
  /** The kernel's lines of the run (never what the reproducer printed: it quotes the recorded splat) and, if the VM went down, the console from its first splat. */
  log: readonly string[];
}

/** The severities a kernel splat (or a kernel gone) shows. */
const KERNEL_SIDE: ReadonlySet<Severity> = new Set(['oops', 'lockup', 'memory-safety', 'kernel-warning']);

/**
 * The reproducers to run for the findings of these severities: every one written into a folder
 * (a command alone has nothing to run), of a finding seen on the kernel that boots (`seenOn`, a
 * release: a defect fixed in a later kernel is not asked of it). Each runs in a boot of its own,
 * as `vm --run-repro` does; those whose finding takes the kernel down come last, so a CI log
 * reads the survivable first.
 */
export function planProofs(file: FindingsFile, severities: ReadonlySet<Severity>, seenOn?: string): ProofPlan[] {
  const seenThere = (finding: FindingsFile['findings'][number]) => seenOn === undefined || finding.seen.some((s) => file.runs[s.run]?.kernel === seenOn);
  const plans = file.findings.flatMap((finding) =>
    severities.has(finding.severity) && seenThere(finding)
      ? finding.reproducers.flatMap((r, reproducer) =>
          r.dir === undefined ? [] : [{ finding: finding.id, reproducer, dir: r.dir, device: r.device, kernelDown: finding.severity === 'oops' || finding.severity === 'lockup' }],
        )
      : [],
  );
  return [...plans.filter((p) => !p.kernelDown), ...plans.filter((p) => p.kernelDown)];
}

/** `[  12.3] text` or `text`: the text. */
const unstamped = (line: string) => line.replace(/^\[\s*\d+\.\d+\]\s?/, '');

/**
 * A run without a verdict that crashed: the VM ended (an oops panics it), a program died by a
 * signal or hung, or a module's run left a splat. A program that exited by itself (2: no such
 * device) or a module that printed nothing did not run to anything.
 */
const died = (run: ReproRun) =>
  run.exitCode === undefined || (run.programStatus !== undefined ? run.programStatus === 124 || run.programStatus >= 128 : run.log.some((line) => isSplatLine(line)));

/**
 * What a run shows of a finding of `severity`: a contract or a user-space crash is shown by the
 * reproducer's own verdict (reproduced; a crash also by crashing), a kernel finding by a splat in
 * the kernel log or console (or the reproducer's verdict, which counts a WARN's taint).
 */
export function proofOf(severity: Severity, run: ReproRun): Proof {
  const outcome: ReproOutcome = run.exitCode === 0 ? 'reproduced' : run.exitCode === 1 ? 'not-reproduced' : died(run) ? 'crashed' : 'no-verdict';
  const splatLine = run.log.find((line) => isSplatLine(line));
  const splat = splatLine === undefined ? null : unstamped(splatLine).trim();
  const proves = KERNEL_SIDE.has(severity) ? splat !== null || outcome === 'reproduced' : severity === 'crash' ? outcome === 'crashed' || outcome === 'reproduced' : outcome === 'reproduced';
  return { kernel: run.kernel, device: run.device, outcome, splat, proves, seconds: Math.round(run.durationMs / 100) / 10, exitCode: run.exitCode ?? null };
}

/** The run info an expectation's `when` is matched against, for the run a reproducer was generated from. */
const runInfo = (run: FindingsRun) => ({ adapter: run.adapter, device: run.device, driver: run.driver ?? undefined, profile: run.profile as Profile, kernel: run.kernel ?? undefined });

/**
 * The reason an expectations file gives for a reproducer that cannot show its finding: an entry
 * for its case with status not-observable whose conditions hold for the run it came from.
 */
export function excuseFor(reproducer: Reproducer, run: FindingsRun, entries: readonly Expectation[]): string | undefined {
  const entry = entries.find((e) => e.id === reproducer.case && e.status === 'not-observable' && conditionsHold(e.when, runInfo(run)));
  return entry === undefined ? undefined : `${entry.reason} (${entry.source})`;
}

/** The findings with each planned reproducer's proof recorded; an unproved one carries its excuse, if the expectations give one. */
export function recordProofs(file: FindingsFile, proofs: ReadonlyArray<{ plan: ProofPlan; proof: Proof }>, entries: readonly Expectation[] = []): FindingsFile {
  return {
    ...file,
    findings: file.findings.map((finding) => ({
      ...finding,
      reproducers: finding.reproducers.map((r, index) => {
        const proof = proofs.find((p) => p.plan.finding === finding.id && p.plan.reproducer === index)?.proof;
        if (proof === undefined) return r;
        const excused = proof.proves ? undefined : excuseFor(r, file.runs[r.run] as FindingsRun, entries);
        return { ...r, proof: excused === undefined ? proof : { ...proof, excused } };
      }),
    })),
  };
}

/** The findings a reproducer ran for and did not show, with no excuse: what fails the gate. */
export const unproved = (file: FindingsFile) => file.findings.filter((f) => f.reproducers.some((r) => r.proof !== undefined && !r.proof.proves && r.proof.excused === undefined));
