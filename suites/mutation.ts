import type { Adapter } from '../adapters/adapter.js';
import type { Mutant } from '../adapters/mutants/mutant.js';
import type { Case } from './case.js';
import { fuzz } from './fuzz/run.js';
import { clauseById } from '../spec/clauses/index.js';
import { type CaseRun, runCases } from './runner.js';

export interface MutantResult {
  name: string;
  verb: string;
  description: string;
  /** The cases whose verdict against the mutant differs from the reference's: the mutant's killers. */
  killedBy: string[];
  /** Those of them that tell it apart by documented clauses alone: it dies under `--profile documented` too. */
  killedByDocumented: string[];
  /** Cases that could not run to a verdict (a harness problem to look at, not a kill). */
  errors: string[];
  /** The differential fuzzer's verdict against the reference model, when it was run: the shrunk divergence. */
  fuzz: { killed: boolean; divergence: string | null } | null;
}

export interface MutationReport {
  /** The reference's own verdicts: `failed` are unexpected failures, `known` fail only clauses it is known to break. */
  baseline: { failed: string[]; known: string[]; errors: string[] };
  mutants: MutantResult[];
  killed: number;
  survived: string[];
  /** Mutants that only the fuzzer kills: a case is missing for each. */
  fuzzOnly: string[];
  /** killed / mutants, 0..1 */
  score: number;
}

/** What a case saw, clause by clause (only the clauses `keep` takes): two implementations a case tells apart differ here. */
function signature(run: CaseRun, keep: (clause: string) => boolean = () => true): string {
  const checks = run.checks.filter((c) => keep(c.clause)).map((c) => `${c.clause}:${c.status}`);
  // A run without checks (a timeout, a crash) is told by its status; otherwise the checks say it all.
  return `${run.checks.length === 0 || run.status === 'error' ? run.status : 'ran'} ${checks.sort().join(' ')}`;
}

async function verdicts(adapter: Adapter, cases: readonly Case[]) {
  const info = await adapter.info();
  const { runs } = await runCases({ adapter, info, cases, profile: info.defaultProfile, timeoutMs: 10_000 });
  return {
    verdict: new Map(runs.map((r) => [r.case.id, signature(r)])),
    documented: new Map(runs.map((r) => [r.case.id, signature(r, (clause) => clauseById.get(clause)?.level === 'documented')])),
    failed: runs.filter((r) => r.status === 'fail'),
    errors: runs.filter((r) => r.status === 'error').map((r) => ({ id: r.case.id, reason: `${r.case.id}: ${r.reason ?? 'error'}` })),
  };
}

/**
 * Runs the shared cases against the reference model and every mutant. A mutant is killed by a
 * case whose verdict, clause by clause, differs from the reference's: a check the reference passes
 * and the mutant fails, or one the reference fails (a documented clause rdmavt itself breaks) and
 * the mutant passes.
 */
export async function runMutation(
  reference: Adapter,
  mutants: readonly Mutant[],
  adapterOf: (m: Mutant) => Adapter,
  cases: readonly Case[],
  options: { fuzzRuns?: number; seed?: number; knownFailures?: ReadonlySet<string>; knownErrors?: ReadonlySet<string> } = {},
): Promise<MutationReport> {
  const ref = await verdicts(reference, cases);
  // A documented clause the reference (rdmavt) breaks fails its cases against the model too.
  const known = (run: (typeof ref.failed)[number]) => run.checks.every((c) => c.status !== 'fail' || options.knownFailures?.has(c.clause) === true);
  // A case the reference cannot answer (rdmavt oopses: the model refuses to invent a return) errors on the model too.
  const knownError = (e: { id: string }) => options.knownErrors?.has(e.id) === true;
  const baseline = {
    failed: ref.failed.filter((r) => !known(r)).map((r) => r.case.id),
    known: [...ref.failed.filter(known).map((r) => r.case.id), ...ref.errors.filter(knownError).map((e) => e.id)],
    errors: ref.errors.filter((e) => !knownError(e)).map((e) => e.reason),
  };
  const results: MutantResult[] = [];
  for (const mutant of mutants) {
    const adapter = adapterOf(mutant);
    const { verdict, documented, errors } = await verdicts(adapter, cases);
    const differs = (seen: Map<string, string>, reference: Map<string, string>) =>
      [...seen].filter(([id, got]) => !got.startsWith('error') && got !== reference.get(id)).map(([id]) => id);
    const fuzzed =
      options.fuzzRuns === undefined
        ? null
        : await fuzz({ adapter, reference, profile: 'rdmavt', runs: options.fuzzRuns, seed: options.seed ?? 1 });
    results.push({
      name: mutant.name,
      verb: mutant.verb,
      description: mutant.description,
      killedBy: differs(verdict, ref.verdict),
      killedByDocumented: differs(documented, ref.documented),
      errors: errors.map((e) => e.reason),
      fuzz: fuzzed === null ? null : { killed: fuzzed.divergence !== null, divergence: fuzzed.divergence?.commands ?? null },
    });
  }
  const survived = results.filter((r) => r.killedBy.length === 0 && r.fuzz?.killed !== true).map((r) => r.name);
  const fuzzOnly = results.filter((r) => r.killedBy.length === 0 && r.fuzz?.killed === true).map((r) => r.name);
  const killed = results.length - survived.length;
  return { baseline, mutants: results, killed, survived, fuzzOnly, score: results.length === 0 ? 0 : killed / results.length };
}
