import { z } from 'zod';
import { QpState } from '../../spec/verbs/attrs.js';
import { u32, u64 } from '../../spec/verbs/ints.js';
import { SendOpcode } from '../../spec/verbs/wr.js';
import { QPS, SLOTS } from './side.js';

/** A wr_id in fuzz.json: a decimal string, since a JSON number loses a u64's low bits. */
const WrId = z.codec(z.string().regex(/^(0|[1-9]\d{0,19})$/, 'a wr_id as a decimal string'), u64, { decode: (s) => BigInt(s), encode: (n) => n.toString() });
const Slot = z.number().int().min(0).max(SLOTS - 1);
/** A QP by its index among a side's QPs (side.ts QPS), the same on both sides. */
const QpIndex = z.number().int().min(0).max(QPS.length - 1);

/**
 * A receive WR as generated: sges by slot in the side's buffer, so each side builds its own
 * addresses and keys. A bogus lkey (bad-lkey sequences only) puts the QPs in ERR once a message consumes it.
 */
export const WrSpec = z.object({
  wr_id: WrId,
  sges: z.array(z.object({ slot: Slot, length: u32, bogusLkey: z.boolean() })),
  numSge: z.enum(['list', 'negative', 'above-max', 'zero']),
});
export type WrSpec = z.output<typeof WrSpec>;

/** A send WR as generated: where it gathers from, what it targets, each side building its own keys. */
export const SendSpec = z.object({
  opcode: SendOpcode,
  /** Bytes gathered (an atomic takes 8 whatever this says). */
  length: u32,
  /** Gather from the second MR, whose lkey is stale while it is deregistered. */
  fromMr: z.boolean(),
  numSge: z.enum(['list', 'negative', 'above-max']),
  imm: u32,
  /** An RDMA or atomic operation's target: the buffer, the second MR, or a bogus rkey. */
  remote: z.enum(['buffer', 'mr', 'bogus']),
  slot: Slot,
});
export type SendSpec = z.output<typeof SendSpec>;

/** How a modify_qp's mask is drawn (commands.ts modifyOf). */
export const MaskKind = z.enum(['valid', 'bare', 'extra', 'bad-value', 'reconnect']);
export type MaskKind = z.output<typeof MaskKind>;

export const DestroyTarget = z.discriminatedUnion('kind', [z.object({ kind: z.enum(['qp', 'cq']), index: QpIndex }), z.object({ kind: z.literal('srq') })]);
export type DestroyTarget = z.output<typeof DestroyTarget>;

/**
 * One fuzz command with every parameter it was drawn with (commands.ts): what `fuzz --replay`
 * runs again, exactly, without drawing anything.
 */
export const FuzzCommand = z.discriminatedUnion('kind', [
  /** post_srq_recv, or post_recv on QP `qp`. */
  z.object({ kind: z.literal('post'), wrs: z.array(WrSpec), qp: QpIndex.optional() }),
  z.object({ kind: z.literal('send'), qp: QpIndex, sends: z.array(SendSpec) }),
  z.object({ kind: z.literal('armLimit'), limit: u32 }),
  z.object({ kind: z.literal('resize'), maxWr: u32 }),
  z.object({ kind: z.literal('modify'), qp: QpIndex, to: QpState, mask: MaskKind }),
  z.object({ kind: z.literal('query'), qp: QpIndex }),
  z.object({ kind: z.literal('cycleMr') }),
  z.object({ kind: z.literal('destroy'), target: DestroyTarget }),
]);
export type FuzzCommand = z.output<typeof FuzzCommand>;

/**
 * A replay path: fast-check's counterexample path (indices joined by ':'), then '@' and the
 * command sequence's replay path (two base64 runs joined by ':') when there is one.
 */
export const FuzzPath = z.string().regex(/^\d+(:\d+)*(@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?$/, "a replay path from fuzz.json, e.g. 3:1@AB:C");

/**
 * fuzz.json: one differential run, enough to replay its divergence exactly. Written encoded
 * (FuzzResults.encode: wr_ids as strings), read with parse.
 */
export const FuzzResults = z.object({
  schemaVersion: z.literal(2),
  /** `self-check`: the adapter under test is itself a model, so this is no conformance result. */
  kind: z.enum(['self-check', 'conformance']),
  adapter: z.string(),
  reference: z.string(),
  profile: z.enum(['documented', 'rdmavt']),
  seed: z.number().int(),
  runs: z.number().int(),
  commands: z.number().int(),
  durationMs: z.number(),
  commandsPerSecond: z.number(),
  /** The share of commands run while both QPs of the pair were in RTS, 0..1. */
  liveShare: z.number().min(0).max(1),
  divergence: z
    .object({
      path: FuzzPath,
      commands: z.string(),
      message: z.string(),
      /**
       * The commands the failing sequence ran, in order, each with every parameter (of a kernel
       * finding: those of `finding.sequence`): what `fuzz --replay` runs. Absent from reports
       * written before it could.
       */
      ran: z.array(FuzzCommand).optional(),
      replay: z.string(),
      /**
       * With --kernel-coverage: drawn in run `run` from the sequence kept at run `kept` (corpus,
       * runs from 1). The seed and path alone do not replay it: `replay` runs the seed's first
       * `run` runs again, which reproduces it when the kernel reaches the same functions in them.
       */
      fromCorpus: z.object({ kept: z.number().int().positive(), run: z.number().int().positive() }).optional(),
    })
    .nullable(),
  /** Commands per batch (--chunk) and a batch's time allowed (--command-timeout): a replay runs with the same. Absent from older reports. */
  chunk: z.number().int().positive().optional(),
  commandTimeoutMs: z.number().int().positive().optional(),
  /**
   * Written by `fuzz --replay FILE`: the recorded divergence's message, and whether this run's
   * divergence has the same one.
   */
  replayed: z.object({ file: z.string(), recorded: z.string(), same: z.boolean() }).optional(),
  /**
   * How shrinking the divergence went: `stopped` when its time ran out (--shrink-time), so the
   * sequence may not be minimal; `none` when nothing was shrunk (no divergence, --no-shrink, a
   * finding). Absent from reports written before shrinking had a time limit.
   */
  shrinking: z.enum(['done', 'stopped', 'none']).optional(),
  /**
   * What the kernel log showed (an oops, a lockup, a warning) or a command that never answered,
   * with the log lines. The run stopped there, unshrunk (a WARN_ONCE fires once per boot, an oops
   * ends the kernel): `sequence` is what ran, up to the last command of the batch during which
   * it was seen, and `batch` how many commands shared that batch (1 names the command). Absent
   * from reports written before the fuzzer watched the log.
   */
  finding: z
    .object({
      problem: z.string(),
      lines: z.array(z.string()),
      fatal: z.boolean(),
      sequence: z.array(z.string()),
      batch: z.number().int().min(0).optional(),
    })
    .nullable()
    .optional(),
  /**
   * Kernel warnings the expectations name (`splat:<text>` entries, --expectations) that the runs
   * met: recorded with the entry and the watch's sentence, and fuzzing went on past them.
   */
  expectedWarnings: z.array(z.object({ id: z.string(), problem: z.string() })).optional(),
  /**
   * Divergences the expectations name (`divergence:<regex>` entries, a driver's race a replay shows
   * only now and then) that runs met: the entry, the first message that matched, how many runs
   * ended there. Fuzzing went on with the next run.
   */
  expectedDivergences: z.array(z.object({ id: z.string(), message: z.string(), runs: z.number().int().positive() })).optional(),
  /**
   * Why the fuzz stopped without a verdict, when it did: a run's sides could not be opened, or
   * something other than a comparison failed (a transport's error, a harness bug), in run `run`.
   * Never a divergence: the runs before were compared, the rest not run (fuzz exits 3).
   */
  harnessError: z.object({ run: z.number().int().positive(), message: z.string() }).optional(),
  /**
   * Fatal findings the expectations name (`fatal:<regex>` entries: a lockup or an oops the driver
   * is known to cause), met by the device fuzz through the VM's relay: each ended its boot, and a
   * new boot went on from the next run of the same seed. Each with its entry, the run (from 1) it
   * ended, and the finding as the watch and the guest's console told it.
   */
  expectedFindings: z
    .array(z.object({ id: z.string(), run: z.number().int().positive(), problem: z.string(), lines: z.array(z.string()), sequence: z.array(z.string()), batch: z.number().int().min(0) }))
    .optional(),
  /**
   * Runs that ended early, not observable on this adapter: its side would not carry a step (the
   * kernel adapter's rvtc refuses an RDMA no MR of its session covers: its MRs are one DMA MR, so
   * the driver would write freed memory). What ran before was compared. By reason, with the count.
   */
  cutShort: z.array(z.object({ reason: z.string(), runs: z.number().int().positive() })).optional(),
  /**
   * Commands drawn but not run on either side, because this adapter cannot show what they do
   * (rvtc's MRs are DMA MRs: a cycleMr there invalidates no key): `command: reason`, and how many.
   */
  skipped: z.array(z.object({ reason: z.string(), commands: z.number().int().positive() })).optional(),
  /**
   * With --kernel-coverage: the runs kept because they reached a driver function that no earlier
   * run had (numbered from 1, as the progress lines count), each with the commands it executed and
   * the functions it added; and how many runs were drawn from them (a kept sequence extended, or
   * two spliced).
   */
  corpus: z
    .object({
      guidedRuns: z.number().int().min(0),
      entries: z.array(z.object({ run: z.number().int().positive(), commands: z.array(z.string()), added: z.array(z.string()) })),
    })
    .optional(),
});
export type FuzzResults = z.infer<typeof FuzzResults>;
