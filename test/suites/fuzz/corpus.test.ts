import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/adapter.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { Corpus, type CoverageSource } from '../../../suites/fuzz/corpus.js';
import { fuzz } from '../../../suites/fuzz/run.js';

/** A fake tracer: `reach` says which functions a run's executed commands ran. */
const fakeCoverage = (reach: (commands: readonly object[]) => string[]): CoverageSource => ({
  begin: () => undefined,
  end: (commands) => ({ functions: new Set(reach(commands)), lost: 0 }),
});

const arms = (commands: readonly object[]) => commands.filter((c) => c.constructor.name === 'ArmLimit').length;

/** A ladder: `limit_1` .. `limit_n` for a run that armed the SRQ limit 1 .. n times. */
const ladder = (commands: readonly object[]) => ['rvt_post_srq_recv', ...Array.from({ length: arms(commands) }, (_, i) => `limit_${i + 1}`)];

const rung = (fn: string) => Number(/^limit_(\d+)$/.exec(fn)?.[1] ?? 0);

const MAX = 10;
const options = { reference: modelAdapter(), profile: 'documented' as const, runs: 300, seed: 4, maxCommands: MAX };

/** The model, whose modify_srq of the limit fails from the `nth` call of a session on: a bug only a sequence arming the limit that often shows. */
function failingFromArm(nth: number): Adapter {
  const model = modelAdapter();
  return {
    ...model,
    open: async () => {
      const session = await model.open();
      const modify = session.modifySrq;
      let calls = 0;
      session.modifySrq = async (args) => (args.mask.includes('LIMIT') && ++calls >= nth ? { rawReturn: -22 } : modify(args));
      return session;
    },
  };
}

describe('Corpus', () => {
  it('keeps a sequence that reached a function no earlier one did, with what it added, and names the run that reached each first', () => {
    const corpus = new Corpus();
    type Command = Parameters<Corpus['record']>[1][number];
    const [a, b] = [{ id: 'a' }, { id: 'b' }] as unknown as [Command, Command];
    expect(corpus.record(1, [a], new Set(['rvt_post_srq_recv', 'rvt_create_srq']))).toEqual(['rvt_create_srq', 'rvt_post_srq_recv']);
    expect(corpus.record(2, [b], new Set(['rvt_post_srq_recv']))).toEqual([]);
    expect(corpus.record(3, [b], new Set(['rvt_post_srq_recv', 'rvt_modify_srq']))).toEqual(['rvt_modify_srq']);
    // a run that executed nothing cannot be mutated from: what it reached is recorded, not kept
    expect(corpus.record(4, [], new Set(['rvt_destroy_srq']))).toEqual(['rvt_destroy_srq']);
    expect(corpus.entries.map((e) => [e.run, e.added])).toEqual([
      [1, ['rvt_create_srq', 'rvt_post_srq_recv']],
      [3, ['rvt_modify_srq']],
    ]);
    expect(Object.fromEntries(corpus.firstReached)).toEqual({ rvt_create_srq: 1, rvt_post_srq_recv: 1, rvt_modify_srq: 3, rvt_destroy_srq: 4 });
  });
});

describe('the coverage-guided fuzzer', () => {
  it('keeps the runs that reached something new, each with its commands, and records which run reached each function first', async () => {
    const lines: string[] = [];
    const report = await fuzz({ ...options, adapter: modelAdapter(), runs: 40, coverage: fakeCoverage(ladder), onProgress: (line) => lines.push(line), progressMs: 0 });
    expect(lines.at(-1)).toMatch(/^run 40 of 40: .*; \d+ driver functions reached, \d+ sequence\(s\) kept, \d+ run\(s\) drawn from them$/);
    const entries = report.corpus?.entries ?? [];
    expect(entries.length).toBeGreaterThan(1);
    for (const entry of entries) {
      // a kept run armed the limit as often as its highest new rung says, and its commands say so
      expect(entry.commands.filter((c) => c.startsWith('armLimit(')).length).toBe(Math.max(...entry.added.map(rung)));
    }
    const traced = report.corpus?.traced ?? [];
    expect(traced.map((t) => t.caseId)).toEqual(Array.from({ length: 40 }, (_, i) => `run ${i + 1}`));
    // each function is reached first by exactly one run
    const first = traced.flatMap((t) => t.functions);
    expect(new Set(first).size).toBe(first.length);
    expect(first).toEqual(entries.flatMap((e) => e.added));
  });

  it('mutates from kept runs: it reaches a function that only a sequence longer than --max-commands reaches, where the same runs drawn afresh do not', async () => {
    const guided = await fuzz({ ...options, adapter: modelAdapter(), coverage: fakeCoverage(ladder) });
    let fresh = 0;
    // the same runs drawn without a corpus: a coverage source that never reports anything new keeps nothing
    await fuzz({ ...options, adapter: modelAdapter(), coverage: fakeCoverage((commands) => ((fresh = Math.max(fresh, arms(commands))), [])) });
    const top = Math.max(...(guided.corpus?.entries ?? []).flatMap((e) => e.added.map(rung)));
    expect(fresh).toBeLessThanOrEqual(MAX);
    expect(top).toBeGreaterThan(MAX + 2);
    expect(guided.corpus?.guidedRuns).toBeGreaterThan(0);
    // a kept run drawn from the corpus starts with an earlier kept run's commands
    const entries = guided.corpus?.entries ?? [];
    const extended = entries.filter((e) => entries.some((earlier) => earlier.run < e.run && earlier.commands.length > 0 && earlier.commands.every((c, i) => e.commands[i] === c)));
    expect(extended.length).toBeGreaterThan(0);
  });

  it('shrinks a divergence found in a run drawn from the corpus to the commands that show it', async () => {
    const nth = MAX + 2;
    const report = await fuzz({ ...options, adapter: failingFromArm(nth), coverage: fakeCoverage(ladder) });
    expect(report.divergence).not.toBeNull();
    expect(report.divergence?.fromCorpus?.kept).toBeGreaterThan(0);
    expect(report.divergence?.fromCorpus?.run).toBeGreaterThan(report.divergence?.fromCorpus?.kept ?? Infinity);
    expect(report.shrinking).toBe('done');
    // minimal: the arms up to the failing one, nothing else
    expect(report.divergence?.commands.split(',').map((c) => c.replace(/\(.*/, ''))).toEqual(Array.from({ length: nth }, () => 'armLimit'));
    expect(report.divergence?.message).toMatch(/modify_srq LIMIT/);
  });

  it("finds a divergence of a run drawn from the corpus again in the seed's runs up to it, when the same runs are kept (as the replay command runs them)", async () => {
    const first = await fuzz({ ...options, adapter: failingFromArm(MAX + 2), coverage: fakeCoverage(ladder) });
    const run = first.divergence?.fromCorpus?.run ?? 0;
    const again = await fuzz({ ...options, runs: run, adapter: failingFromArm(MAX + 2), coverage: fakeCoverage(ladder) });
    expect(again.divergence?.fromCorpus).toEqual(first.divergence?.fromCorpus);
    expect(again.divergence?.commands).toBe(first.divergence?.commands);
  });

  it('changes nothing while the corpus is empty: the same seed draws the same runs as without coverage, and the report has no corpus', async () => {
    const plain = await fuzz({ ...options, adapter: modelAdapter(), runs: 60 });
    const empty = await fuzz({ ...options, adapter: modelAdapter(), runs: 60, coverage: fakeCoverage(() => []) });
    expect(plain.corpus).toBeUndefined();
    expect(empty.corpus?.entries).toEqual([]);
    expect(empty.corpus?.guidedRuns).toBe(0);
    expect({ ...empty, durationMs: 0, commandsPerSecond: 0, corpus: undefined }).toEqual({ ...plain, durationMs: 0, commandsPerSecond: 0, corpus: undefined });
  });
});

describe('a divergence drawn afresh while the corpus guides', () => {
  it('replays from its seed and path without the corpus, as the replay command runs it', async () => {
    // seed 5: found in run 20, drawn afresh while the corpus held sequences and half the runs came from it
    const mutated = { ...options, adapter: failingFromArm(4), runs: 100, seed: 5 };
    const found = await fuzz({ ...mutated, coverage: fakeCoverage(ladder) });
    expect(found.divergence?.fromCorpus).toBeUndefined();
    expect(found.corpus?.guidedRuns).toBeGreaterThan(0);
    const replayed = await fuzz({ ...mutated, path: found.divergence?.path ?? '' });
    expect(replayed.divergence?.commands).toBe(found.divergence?.commands);
    expect(replayed.divergence?.path).toBe(found.divergence?.path);
  });
});
