import { z } from 'zod';
import type { CaseHeading } from '../case.js';

/** How a reader builds the program from `source` and runs one scenario on `device` (as root; rvt_sim loaded with qib_id=1 for rvt_sim0). */
export const hostileRunCommand = (source: string, scenario: string, device = 'rvt_sim0') =>
  `cc -Wall -O2 -o hostile ${source} -libverbs -lpthread && ./hostile -d ${device} ${scenario}`;

/**
 * The hostile program's scenarios (adapters/ibverbs/hostile/hostile.c: `hostile --list` prints the
 * same names, a test holds them together), each a case of one clause of spec/clauses/hostile-user.ts.
 */
export const HOSTILE_SCENARIOS = [
  { name: 'rq-num-sge-over', clause: 'hostile_user.rwqe.num_sge-over', title: 'num_sge above max_sge in a posted WQE (the extra SGE valid), then a SEND consumes it' },
  { name: 'rq-head-out-of-range', clause: 'hostile_user.rwq.head-out-of-range', title: "the ring's head at or past its size, then SENDs" },
  { name: 'rq-tail-out-of-range', clause: 'hostile_user.rwq.tail-out-of-range', title: "the ring's tail past its size with WQEs queued, then SENDs" },
  { name: 'rq-num-sge-huge', clause: 'hostile_user.rwqe.num_sge-huge', title: 'num_sge 255 (the most the shared u8 holds), then a SEND' },
  { name: 'srq-resize-num-sge-over', clause: 'hostile_user.srq_resize.num_sge-over', title: 'queued SRQ WQEs with num_sge above max_sge, then ibv_modify_srq resizes (the copy) and a SEND' },
  { name: 'rq-rewrite-race', clause: 'hostile_user.rwqe.rewritten-while-consumed', title: 'a second thread rewrites num_sge while SENDs consume the WQEs' },
  { name: 'destroy-after-hostile', clause: 'hostile_user.destroy.after-hostile-writes', title: 'num_sge, head and tail out of range, then the error state (flush) and destroy' },
] as const;

export type HostileScenario = (typeof HOSTILE_SCENARIOS)[number];
export const HOSTILE_SCENARIO_NAMES: readonly string[] = HOSTILE_SCENARIOS.map((s) => s.name);

/** A scenario as a case of the report. */
export const scenarioCase = (scenario: HostileScenario): CaseHeading => ({
  id: `hostile_user/${scenario.name}`,
  verb: 'hostile_user',
  title: scenario.title,
  clauses: [scenario.clause],
  requires: [],
});

/**
 * The one line the program prints for a scenario, `hostile: <scenario>: ...`: what the verbs
 * answered (`key=value` words), or why nothing hostile was written (its setup failed, or the
 * provider's structures were not laid out as the program reads them).
 */
export const HostileLine = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ran'), scenario: z.string(), answers: z.record(z.string(), z.string()) }),
  z.object({ kind: z.literal('setup-failed'), scenario: z.string(), stage: z.string(), errno: z.string() }),
  z.object({ kind: z.literal('layout-mismatch'), scenario: z.string(), detail: z.string() }),
]);
export type HostileLine = z.infer<typeof HostileLine>;

const LINE = /^hostile: ([a-z0-9-]+):(?: (.*))?$/m;
const WORD = /^([a-z0-9_]+)=(\S+)$/;

/** The program's line in its output, or undefined when it printed none (it was killed first) or a malformed one. */
export function parseHostileLine(stdout: string): HostileLine | undefined {
  const match = LINE.exec(stdout);
  if (match === null) return undefined;
  const scenario = match[1] as string;
  const rest = (match[2] ?? '').trim();
  if (rest.startsWith('layout-mismatch ')) return HostileLine.parse({ kind: 'layout-mismatch', scenario, detail: rest.slice('layout-mismatch '.length) });
  const setupFailed = rest.startsWith('setup-failed');
  const words = (setupFailed ? rest.slice('setup-failed'.length) : rest).split(/\s+/).filter((w) => w !== '');
  const pairs = words.map((w) => WORD.exec(w));
  if (pairs.some((p) => p === null)) return undefined;
  const answers = Object.fromEntries(pairs.map((p) => [p?.[1], p?.[2]]));
  const parsed = HostileLine.safeParse(setupFailed ? { kind: 'setup-failed', scenario, ...answers } : { kind: 'ran', scenario, answers });
  return parsed.success ? parsed.data : undefined;
}
