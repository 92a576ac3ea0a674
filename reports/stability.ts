import { z } from 'zod';
import type { CaseResult, RunResults } from './results-schema.js';

/**
 * One tier run several times (`rvt-conform tiers --repeat N`): a verdict that depends on the
 * host's speed shows as a case whose status differs between runs. Each case's status per run, and
 * the cases whose status changed.
 */
export const Stability = z.object({
  tier: z.string(),
  /** How many runs were asked for, and the statuses of those that reported (a VM that ended early leaves fewer). */
  repeat: z.number().int().min(1),
  runs: z.array(z.object({ run: z.number().int().min(1), out: z.string(), gate: z.string(), durationMs: z.number() }).strict()),
  /** Host busy loops beside the VM while the runs ran. */
  load: z.number().int().min(0),
  /** Cases that did not do the same in every run that reported (observedStatus), with what they did (and why) per run. */
  changed: z.array(
    z
      .object({
        id: z.string(),
        statuses: z.array(z.object({ run: z.number().int(), status: z.string(), reason: z.string().optional() }).strict()),
      })
      .strict(),
  ),
  /** Runs asked for that did not report (the VM stopped first): stability unproven for them. */
  missing: z.array(z.number().int()),
  stable: z.boolean(),
});
export type Stability = z.infer<typeof Stability>;

export interface RepeatedRun {
  run: number;
  out: string;
  results: RunResults | undefined;
}

/**
 * What a case did, before any expectation labelled it: an expected failure is the failure (or the
 * error) it was, a pass against an expectation a pass. Stability is about behaviour, so an edited
 * expectations file between runs is no change.
 */
export function observedStatus(kase: Pick<CaseResult, 'status' | 'expectation'>): string {
  if (kase.status === 'xpass') return 'pass';
  if (kase.status === 'xfail') return kase.expectation?.status === 'error' ? 'error' : 'fail';
  return kase.status;
}

/** Compares the runs of one tier case by case, by what each case did (observedStatus); a case absent from a run (not selected, not reached) counts as `absent`. */
export function stabilityOf(tier: string, repeat: number, load: number, runs: readonly RepeatedRun[]): Stability {
  const reported = runs.filter((r): r is RepeatedRun & { results: RunResults } => r.results !== undefined);
  const ids = [...new Set(reported.flatMap((r) => r.results.cases.map((c) => c.id)))];
  const byRun = reported.map((r) => new Map(r.results.cases.map((c) => [c.id, c])));
  const changed = ids
    .map((id) => ({
      id,
      statuses: reported.map((r, i) => {
        const kase = byRun[i]?.get(id);
        return { run: r.run, status: kase === undefined ? 'absent' : observedStatus(kase), ...(kase?.reason === undefined ? {} : { reason: kase.reason }) };
      }),
    }))
    .filter(({ statuses }) => new Set(statuses.map((s) => s.status)).size > 1);
  const missing = runs.filter((r) => r.results === undefined).map((r) => r.run);
  return {
    tier,
    repeat,
    runs: reported.map((r) => ({ run: r.run, out: r.out, gate: r.results.gate.summary, durationMs: r.results.run.durationMs })),
    load,
    changed,
    missing,
    stable: changed.length === 0 && missing.length === 0,
  };
}

/** The stability of one tier as Markdown: the runs, then every case that changed, run by run. */
export function renderStability(s: Stability): string {
  const lines = [
    `# Stability of tier ${s.tier}: ${s.stable ? 'STABLE' : 'UNSTABLE'}`,
    '',
    `${s.runs.length} of ${s.repeat} run(s) reported, ${s.load} host busy loop(s) beside the VM; ${s.changed.length} case(s) changed status.`,
    '',
    '| run | gate | duration |',
    '| --- | --- | --- |',
    ...s.runs.map((r) => `| ${r.run} | ${r.gate.replaceAll('|', '\\|')} | ${(r.durationMs / 1000).toFixed(1)} s |`),
    ...s.missing.map((run) => `| ${run} | did not report (the VM stopped first) | - |`),
  ];
  if (s.changed.length > 0) {
    lines.push('', '## Cases whose status changed', '', `| case | ${s.runs.map((r) => `run ${r.run}`).join(' | ')} |`, `| --- |${s.runs.map(() => ' --- |').join('')}`);
    for (const c of s.changed) lines.push(`| ${c.id} | ${c.statuses.map((x) => (x.reason === undefined ? x.status : `${x.status}: ${x.reason}`).replaceAll('|', '\\|')).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}
