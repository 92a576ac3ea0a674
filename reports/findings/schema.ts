import { z } from 'zod';
import { Layer } from '../../spec/layer.js';
import { AppliedExpectation } from '../expectations/schema.js';
import { JsonValue } from '../json-value.js';
import { CaseStatus, Ran } from '../results-schema.js';

/**
 * How bad a defect is, worst first (the order findings are ranked in): the kernel went down, the
 * kernel (or a consumer) spins for good, a memory-safety check fired (KASAN, UBSAN, FORTIFY), any
 * other kernel warning, a user-space library crashed the process, a documented contract broken.
 */
export const Severity = z.enum(['oops', 'lockup', 'memory-safety', 'kernel-warning', 'crash', 'contract']);
export type Severity = z.infer<typeof Severity>;

/** One results.json read, by its coordinates (ARCHITECTURE.md: kernel x device x layer x profile). */
export const FindingsRun = z.object({
  path: z.string(),
  /** The kernel release the run judged (the VM's, or the device's); null for the model, which runs on none. */
  kernel: z.string().nullable(),
  /** How the VM had it (installed, staged, tree) and the hash of its .config; null outside the VM. */
  kernelForm: z.string().nullable(),
  kernelConfig: z.string().nullable(),
  device: z.string(),
  /** What drives the device: the kernel driver, else the user-space provider. */
  driver: z.string().nullable(),
  provider: z.string().nullable(),
  layer: Layer,
  adapter: z.string(),
  profile: z.string(),
  startedAt: z.string(),
});
export type FindingsRun = z.infer<typeof FindingsRun>;

/** A case of a run where the finding was seen, or ran without it. `run` indexes `runs`. */
export const Sighting = z.object({
  run: z.number().int().min(0),
  case: z.string(),
  status: CaseStatus,
  ran: Ran,
  /** Where the case ran without this finding but showed another (the same crash on another kind of device, say): that finding's id. */
  otherFinding: z.string().optional(),
});
export type Sighting = z.infer<typeof Sighting>;

/** A source location of the defect: from the kernel log (per booted kernel), a clause's citation, or an expectation's link. */
export const Location = z.object({
  /** The kernel version the file and line are of. */
  kernel: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int().positive().nullable(),
  function: z.string().nullable(),
  /** The kernel module the log names with the function (`[rdmavt]`), when it does. */
  module: z.string().nullable(),
  from: z.enum(['kernel-log', 'clause', 'expectation']),
  href: z.string().optional(),
});
export type Location = z.infer<typeof Location>;

export const BrokenClause = z.object({
  id: z.string(),
  statement: z.string(),
  level: z.string(),
  /** Each source in one line (file:line where the run located it), with the kernel-doc text it quotes. */
  sources: z.array(z.object({ text: z.string(), quote: z.string().optional(), href: z.string().optional() })),
});
export type BrokenClause = z.infer<typeof BrokenClause>;

export const FailedCheck = z.object({ case: z.string(), clause: z.string(), what: z.string(), expected: JsonValue, actual: JsonValue });

/**
 * What a reproducer is: a libibverbs program (repro.c), a kernel module replaying the kernel verbs
 * (rvt_repro.c, Kbuild, Makefile), the hostile tier's program and its scenario (hostile.c), or,
 * where nothing renders (a case that made no verbs calls), only the command that writes one.
 */
export const ReproducerKind = z.enum(['program', 'module', 'hostile', 'command']);
export type ReproducerKind = z.infer<typeof ReproducerKind>;

/** How a reproducer did in a VM (`findings --reproduce --vm`). */
export const ReproOutcome = z.enum(['reproduced', 'not-reproduced', 'crashed', 'no-verdict']);
export type ReproOutcome = z.infer<typeof ReproOutcome>;

export const Proof = z.object({
  /** The kernel it booted, as the VM named it. */
  kernel: z.string(),
  device: z.string(),
  /** reproduced, not-reproduced: its own verdict; crashed: the kernel went down, or the program died by a signal or hung; no-verdict: neither (it could not run: no device, a failed setup). */
  outcome: ReproOutcome,
  /** The first splat line the kernel printed during the run, if any. */
  splat: z.string().nullable(),
  /** Whether this shows the finding: its own verdict, a crash for a crash, a splat for a kernel finding. */
  proves: z.boolean(),
  /** From the start of the boot to the verdict, boot and build included. */
  seconds: z.number().nonnegative(),
  /** The guest's status (VERDICT_EXIT), or null when the VM ended first (an oops, a panic, the time limit). */
  exitCode: z.number().int().nullable(),
  /** Why a reproducer that did not prove its finding is accepted (an expectation of status not-observable). */
  excused: z.string().optional(),
});
export type Proof = z.infer<typeof Proof>;

export const Reproducer = z.object({
  case: z.string(),
  layer: Layer,
  run: z.number().int().min(0),
  kind: ReproducerKind,
  /** The device it was seen on, and runs on by default. */
  device: z.string(),
  /** The command that writes it from the recorded run (program, module), or builds and runs it (hostile). */
  command: z.string(),
  /** Its folder beside findings.md (`<n>-<slug>`, or `<n>-<slug>/<kind>` when the finding has several), absent for a command alone. */
  dir: z.string().optional(),
  /** Its files, written into dir. */
  files: z.array(z.object({ name: z.string(), text: z.string() })),
  /** The hostile tier's scenario it runs. */
  scenario: z.string().optional(),
  proof: Proof.optional(),
});
export type Reproducer = z.infer<typeof Reproducer>;

export const Finding = z.object({
  /** Stable across reports: derived from the key. */
  id: z.string(),
  /** What merges sightings into one finding: the splat's signature, or the case, the device kind and the clauses it broke. */
  key: z.string(),
  severity: Severity,
  title: z.string(),
  /** An expectations file announces it (an expected failure is a known defect). */
  known: z.boolean(),
  expectations: z.array(AppliedExpectation),
  cases: z.array(z.string()),
  clauses: z.array(BrokenClause),
  where: z.array(Location),
  seen: z.array(Sighting).min(1),
  /** Runs where a case of the finding ran without it. */
  notSeen: z.array(Sighting),
  /** The failed checks of the first sighting. */
  checks: z.array(FailedCheck),
  /** Why the case ended as it did (a crash's signal, a timeout), from the first sighting. */
  reason: z.string().optional(),
  /** The kernel log, one excerpt per kernel it was seen on. */
  log: z.array(z.object({ run: z.number().int().min(0), case: z.string(), lines: z.array(z.string()) })),
  reproducers: z.array(Reproducer),
  /** A draft of the report to linux-rdma: subject line and body. */
  report: z.object({ subject: z.string(), body: z.string() }),
});
export type Finding = z.infer<typeof Finding>;

export const FindingsFile = z
  .object({
    tool: z.object({ name: z.literal('rvt-conform'), version: z.string() }),
    runs: z.array(FindingsRun),
    findings: z.array(Finding),
  })
  .meta({ title: 'rvt-conform findings.json', description: 'The defects seen across a set of runs, merged, ranked by severity, each with where it was and was not seen, its evidence, reproducer and a draft report.' });
export type FindingsFile = z.infer<typeof FindingsFile>;
