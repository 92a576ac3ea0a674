import { release } from 'node:os';
import type { AdapterInfo, CapabilityProbe, Profile } from '../adapters/adapter.js';
import type { Clause } from '../spec/clauses/schema.js';
import type { CaseRun } from '../suites/runner.js';
import { clauseResults } from './clause-status.js';
import { coveredByClauses, withExpectation, withWaiver } from './expectations/apply.js';
import type { Expectation } from './expectations/load.js';
import { expectationsFor, runInfoOf } from './expectations/match.js';
import { evaluateGate } from './gate.js';
import { toJsonValue } from './json-value.js';
import { vmRunInfoFromEnv } from '../vm/run-info.js';
import { type CaseResult, CaseStatus, type Citation, type Coverage, RESULTS_SCHEMA_VERSION, RunResults } from './results-schema.js';
import { TOOL_VERSION } from './version.js';
import type { KernelCoverage } from './kernel-coverage.js';

export interface BuildInput {
  info: AdapterInfo;
  profile: Profile;
  seed: number;
  filter: string | null;
  clauses: readonly Clause[];
  runs: readonly CaseRun[];
  startedAt: Date;
  finishedAt: Date;
  interrupted: boolean;
  snapshot: string | null;
  /** The entries of the --expectations file, and the file as given; byDefault: the adapter's own, read without the flag. */
  expectations?: { file: string; entries: readonly Expectation[]; byDefault?: boolean };
  /** The capability probes that decided info.capabilities (none when the run did not probe). */
  probes?: readonly CapabilityProbe[];
  /** From the kernel-doc snapshot: how far the clauses reach the documented functions. */
  coverage?: readonly Coverage[];
  /** From the kernel-doc snapshot: the cited text of each clause's sources, by clause id. */
  citations?: ReadonlyMap<string, readonly Citation[]>;
  /** What the kernel's function tracer saw the driver run (run --kernel-coverage). */
  kernelCoverage?: KernelCoverage;
}

export function caseResult(run: CaseRun): CaseResult {
  return {
    id: run.case.id,
    verb: run.case.verb,
    title: run.case.title,
    clauses: [...run.case.clauses],
    requires: [...run.case.requires],
    status: run.status,
    ran: run.ran,
    ...(run.reason === undefined ? {} : { reason: run.reason }),
    ...(run.error === undefined ? {} : { error: run.error }),
    ...(run.splat === undefined ? {} : { splat: run.splat }),
    durationMs: run.durationMs,
    checks: run.checks.map((c) => ({
      clause: c.clause,
      what: c.what,
      status: c.status,
      expected: toJsonValue(c.expected),
      actual: toJsonValue(c.actual),
      ...(c.reason === undefined ? {} : { reason: c.reason }),
    })),
    trace: run.trace.map((t) => ({
      seq: t.seq,
      call: t.call,
      args: toJsonValue(t.args),
      ...(t.result === undefined ? {} : { result: toJsonValue(t.result) }),
      ...(t.error === undefined ? {} : { error: t.error }),
      ms: t.ms,
    })),
  };
}

/**
 * results.json: the one record every report and the gate are derived from. Validated on the way
 * out, unless `validated` is false: a run in the VM, whose results.json the host validates when it
 * reads it back (reports/guest-results.ts), where the schema's walk over every trace entry cost
 * 1.9 s of the emulated CPU at the end of the suite on rxe0.
 */
export function buildResults(input: BuildInput, { validated = true }: { validated?: boolean } = {}): RunResults {
  const expected = expectationsFor(input.expectations?.entries ?? [], runInfoOf(input.info, input.profile));
  // Case expectations first: a clause failed only by expected cases is an xfail, not a failure.
  const capabilities = input.info.capabilities;
  const ownCases = input.runs.map((run) => {
    const kase = withExpectation(caseResult(run), expected.get(run.case.id));
    return withWaiver(kase, [kase], capabilities, expected);
  });
  const clauses = clauseResults(input.clauses, ownCases, input.profile, input.info.device.transport).map((clause) => {
    const cited = input.citations?.get(clause.id);
    const result = withExpectation(cited === undefined ? clause : { ...clause, citations: [...cited] }, expected.get(clause.id));
    const skipped = ownCases.filter((c) => c.status === 'skip' && c.clauses.includes(clause.id));
    return withWaiver(result, skipped, capabilities, expected);
  });
  const byId = new Map(clauses.map((c) => [c.id, c]));
  const cases = ownCases.map((c) => coveredByClauses(c, byId));
  const totals = Object.fromEntries(CaseStatus.options.map((s) => [s, cases.filter((c) => c.status === s).length])) as Record<CaseStatus, number>;
  // In the VM, the host says which kernel it booted and how (vm/run-info.ts).
  const vm = vmRunInfoFromEnv();
  const results: RunResults = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'rvt-conform', version: TOOL_VERSION },
    run: {
      startedAt: input.startedAt.toISOString(),
      finishedAt: input.finishedAt.toISOString(),
      durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
      profile: input.profile,
      seed: input.seed,
      filter: input.filter,
      interrupted: input.interrupted,
      expectations: input.expectations?.file ?? null,
      ...(input.expectations?.byDefault ? { expectationsByDefault: true } : {}),
    },
    adapter: input.info,
    probes: [...(input.probes ?? [])],
    environment: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      kernel: release(),
      ci: Boolean(process.env.CI),
      ...(vm === undefined ? {} : { vm }),
    },
    spec: {
      snapshot: input.snapshot,
      clauses: input.clauses.length,
      ...(input.coverage === undefined ? {} : { coverage: [...input.coverage] }),
    },
    totals,
    cases,
    ...(input.kernelCoverage === undefined ? {} : { kernelCoverage: input.kernelCoverage }),
    clauses,
    gate: evaluateGate(clauses, cases, input.interrupted),
  };
  return validated ? RunResults.parse(results) : results;
}
