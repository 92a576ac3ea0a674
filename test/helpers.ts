import { fileURLToPath } from 'node:url';
import { type Adapter } from '../adapters/adapter.js';
import { modelAdapter } from '../adapters/model/index.js';
import { type Expectation, loadExpectations } from '../reports/expectations/load.js';
import { clauses } from '../spec/clauses/index.js';
import type { Case } from '../suites/case.js';
import { allCases } from '../suites/index.js';
import { type CaseRun, runCases } from '../suites/runner.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = `${ROOT}dist/cli/main.js`;
/** The CLI as the VM's guest runs it (vm/bundle.mjs). */
export const GUEST_BUNDLE_CLI = `${ROOT}dist/guest/bundle/main.js`;

/** Runs cases against an adapter the way the CLI does, with the adapter's own defaults. */
export async function runAgainst(adapter: Adapter, cases: readonly Case[]): Promise<CaseRun[]> {
  const info = await adapter.info();
  const { runs } = await runCases({ adapter, info, cases, profile: info.defaultProfile, timeoutMs: 10_000 });
  return runs;
}

/**
 * The reference model. Like every model adapter given no store of its own, it shares the process's
 * store of the concurrent engine's outcomes (modelOutcomes): the model's whole-suite runs here (the
 * reference, the agents that serve it) run each concurrent plan once.
 */
export const referenceModel = () => modelAdapter();

/**
 * The reference model's run of the whole suite, made once per test process (vitest's workers
 * share one module graph): the report tests render it and the transport tests compare against it,
 * and each run took a second of CPU. Each caller gets its own copies of the runs.
 */
let referenceSuite: Promise<CaseRun[]> | undefined;
export const referenceSuiteRuns = async (): Promise<CaseRun[]> => (await (referenceSuite ??= runAgainst(referenceModel(), allCases))).map((run) => ({ ...run }));

/**
 * The suite without its concurrent cases: for tests of sessions and transports, where each of those
 * is one call (runConcurrent) carrying a whole history and the model's slowest work by far; the
 * whole suite still goes through each transport in its own test (agent.test.ts, worker-adapter.test.ts).
 */
export const sequentialCases = allCases.filter((c) => !c.id.startsWith('concurrent/'));

/** The reference model's runs of `cases` only, from its one whole-suite run. */
export async function referenceRunsOf(cases: readonly Case[]): Promise<CaseRun[]> {
  const ids = new Set(cases.map((c) => c.id));
  return (await referenceSuiteRuns()).filter((run) => ids.has(run.case.id));
}

export const MODEL_EXPECTATIONS = `${ROOT}expectations/model.yaml`;

/** expectations/model.yaml: the model's waivers (what a Node process cannot observe), as `npm run conform` applies them. */
export async function modelWaivers(): Promise<Expectation[]> {
  const knownIds = new Set([...clauses.map((c) => c.id), ...allCases.map((c) => c.id)]);
  return loadExpectations(MODEL_EXPECTATIONS, { knownIds, today: new Date().toISOString().slice(0, 10) });
}

/** The largest MR an agent serves by default (--max-mr-bytes): every transport must carry it whole. */
export const MR_LIMIT_BYTES = 16 << 20;

/**
 * Writes an MR at the size limit and reads it back through `adapter`, with a pattern of every byte
 * value so a byte lost or moved shows; true when what came back is what went in.
 */
export async function mrRoundTripAtLimit(adapter: Adapter): Promise<boolean> {
  const data = Buffer.from(Array.from({ length: MR_LIMIT_BYTES }, (_, i) => (i * 7 + (i >> 8)) & 0xff)).toString('hex');
  const session = await adapter.open();
  try {
    const pd = (await session.allocPd({})).pd as number;
    const mr = (await session.regMr({ pd, length: MR_LIMIT_BYTES, access: ['LOCAL_WRITE'] })).mr as number;
    if ((await session.writeMr({ mr, offset: 0, data })).rawReturn !== 0) return false;
    return (await session.readMr({ mr, offset: 0, length: MR_LIMIT_BYTES })).data === data;
  } finally {
    await session.close();
  }
}
