import type { Adapter, Profile } from '../../adapters/adapter.js';
import { mutantAdapter, mutants } from '../../adapters/mutants/index.js';
import { type BuildInput, buildResults } from '../../reports/build.js';
import type { Expectation } from '../../reports/expectations/load.js';
import { clauses } from '../../spec/clauses/index.js';
import type { Case } from '../../suites/case.js';
import { allCases } from '../../suites/index.js';
import type { CaseRun } from '../../suites/runner.js';
import { modelWaivers, referenceModel, referenceSuiteRuns, runAgainst } from '../helpers.js';

export interface ResultsOptions {
  adapter?: Adapter;
  profile?: Profile;
  cases?: readonly Case[];
  /** Runs appended after the real ones (a crash, say). */
  extra?: CaseRun[];
  /** The expectations file's entries; expectations/model.yaml's waivers when not given. */
  expectations?: readonly Expectation[];
  interrupted?: boolean;
  more?: Partial<BuildInput>;
  /** buildResults' own check of what it built (off in the VM, where the host checks the file). */
  validated?: boolean;
}

/** Each adapter's run of the whole suite, made once per test process (the model's adapters are deterministic); each caller gets its own copies. */
const suiteRuns = new WeakMap<Adapter, Promise<CaseRun[]>>();
async function wholeSuite(adapter: Adapter): Promise<CaseRun[]> {
  let runs = suiteRuns.get(adapter);
  if (runs === undefined) suiteRuns.set(adapter, (runs = runAgainst(adapter, allCases)));
  return (await runs).map((run) => ({ ...run }));
}

/** results.json of a real run (fixed times and seed, so two builds compare equal). */
export async function resultsFor(options: ResultsOptions = {}) {
  const adapter = options.adapter ?? referenceModel();
  const ran = options.cases !== undefined ? await runAgainst(adapter, options.cases) : options.adapter === undefined ? await referenceSuiteRuns() : await wholeSuite(adapter);
  const runs = [...ran, ...(options.extra ?? [])];
  return buildResults({
    info: await adapter.info(),
    profile: options.profile ?? 'rdmavt',
    seed: 1,
    filter: null,
    clauses,
    runs,
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    interrupted: options.interrupted ?? false,
    snapshot: null,
    expectations: { file: 'test.yaml', entries: options.expectations ?? (await modelWaivers()) },
    ...options.more,
  }, { validated: options.validated ?? true });
}

export function mutant(name: string): Adapter {
  const m = mutants.find((x) => x.name === name);
  if (!m) throw new Error(`mutant ${name} missing`);
  return mutantAdapter(m);
}

const capacityMinusOneAdapter = mutant('capacity-minus-one');
/** The mutant whose SRQ holds one WQE less than granted: one adapter, so its whole-suite run is made once. */
export const capacityMinusOne = () => capacityMinusOneAdapter;

export const casesNamed = (...ids: string[]): Case[] => allCases.filter((c) => ids.includes(c.id));
