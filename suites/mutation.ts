import type { Adapter } from '../adapters/adapter.js';
import type { Mutant } from '../adapters/mutants/mutant.js';
import type { Case } from './case.js';
import { fuzz } from './fuzz/run.js';
import { runCases } from './runner.js';

export interface MutantResult {
  name: string;
  verb: string;
  description: string;
  /** The cases that failed against the mutant: the mutant's killers. */
  killedBy: string[];
  /** Cases that could not run to a verdict (a harness problem to look at, not a kill). */
  errors: string[];
  /** The differential fuzzer's verdict against the reference model, when it was run: the shrunk divergence. */
  fuzz: { killed: boolean; divergence: string | null } | null;
}

export interface MutationReport {
  baseline: { failed: string[]; errors: string[] };
  mutants: MutantResult[];
  killed: number;
  survived: string[];
  /** Mutants that only the fuzzer kills: a case is missing for each. */
  fuzzOnly: string[];
  /** killed / mutants, 0..1 */
  score: number;
}

async function failures(adapter: Adapter, cases: readonly Case[]) {
  const info = await adapter.info();
  const { runs } = await runCases({ adapter, info, cases, profile: info.defaultProfile, timeoutMs: 10_000 });
  return {
    failed: runs.filter((r) => r.status === 'fail').map((r) => r.case.id),
    errors: runs.filter((r) => r.status === 'error').map((r) => `${r.case.id}: ${r.reason ?? 'error'}`),
  };
}

/**
 * Runs the shared cases against the reference model and every mutant. A mutant is killed when
 * at least one case fails against it; the baseline must have no failure for the score to mean anything.
 */
export async function runMutation(
  reference: Adapter,
  mutants: readonly Mutant[],
  adapterOf: (m: Mutant) => Adapter,
  cases: readonly Case[],
  options: { fuzzRuns?: number; seed?: number } = {},
): Promise<MutationReport> {
  const baseline = await failures(reference, cases);
  const results: MutantResult[] = [];
  for (const mutant of mutants) {
    const adapter = adapterOf(mutant);
    const { failed, errors } = await failures(adapter, cases);
    const fuzzed =
      options.fuzzRuns === undefined
        ? null
        : await fuzz({ adapter, reference, profile: 'rdmavt', runs: options.fuzzRuns, seed: options.seed ?? 1 });
    results.push({
      name: mutant.name,
      verb: mutant.verb,
      description: mutant.description,
      killedBy: failed,
      errors,
      fuzz: fuzzed === null ? null : { killed: fuzzed.divergence !== null, divergence: fuzzed.divergence?.commands ?? null },
    });
  }
  const survived = results.filter((r) => r.killedBy.length === 0 && r.fuzz?.killed !== true).map((r) => r.name);
  const fuzzOnly = results.filter((r) => r.killedBy.length === 0 && r.fuzz?.killed === true).map((r) => r.name);
  const killed = results.length - survived.length;
  return { baseline, mutants: results, killed, survived, fuzzOnly, score: results.length === 0 ? 0 : killed / results.length };
}
