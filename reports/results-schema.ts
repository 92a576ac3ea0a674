import { VmRunInfo } from '../vm/run-info.js';
import { z } from 'zod';
import { AdapterInfo, CapabilityProbe, Profile } from '../adapters/adapter.js';
import { Clause } from '../spec/clauses/schema.js';
import { CoverageEntry } from './coverage.js';
import { KernelCoverage } from './kernel-coverage.js';
import { AppliedExpectation } from './expectations/schema.js';
import { CaseStatus, CheckStatus, ClauseStatus, Ran } from '../spec/status.js';
import { JsonValue } from './json-value.js';

/**
 * 2: xfail/xpass and the applied expectations, run.expectations, gate.unexpectedPasses, citations and coverage.
 * 3: gate.unverified and gate.waived (a binding clause that was not seen to hold needs a waiver), probes, the `ran` kinds.
 */
export const RESULTS_SCHEMA_VERSION = 3;

export { CaseStatus, ClauseStatus, Ran } from '../spec/status.js';

export const CheckResult = z.object({
  clause: z.string(),
  what: z.string(),
  status: CheckStatus,
  expected: JsonValue,
  actual: JsonValue,
  reason: z.string().optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const TraceEntry = z.object({
  seq: z.number().int(),
  call: z.string(),
  args: JsonValue,
  result: JsonValue.optional(),
  error: z.string().optional(),
  ms: z.number(),
});
export type TraceEntry = z.infer<typeof TraceEntry>;

export const CaseResult = z.object({
  id: z.string(),
  verb: z.string(),
  title: z.string(),
  clauses: z.array(z.string()),
  requires: z.array(z.string()),
  status: CaseStatus,
  ran: Ran,
  reason: z.string().optional(),
  error: z.object({ name: z.string(), message: z.string(), stack: z.string().optional() }).optional(),
  durationMs: z.number(),
  checks: z.array(CheckResult),
  trace: z.array(TraceEntry),
  /** The expectation that applied to this case (keyed by its id, or by the clause it failed). */
  expectation: AppliedExpectation.optional(),
  /** A kernel splat (oops, lockup, warning) while the case ran: it fails the gate at every profile unless an expectation for this case announces it. */
  splat: z.object({ problem: z.string(), fatal: z.boolean() }).optional(),
});
export type CaseResult = z.infer<typeof CaseResult>;

export const Citation = z.object({
  source: z.number().int().min(0),
  text: z.string(),
  /** The line its kernel-doc comment opens on in the snapshot's kernel (absent in results written before it was recorded). */
  line: z.number().int().positive().optional(),
});
export type Citation = z.infer<typeof Citation>;

/** How far the clauses reach a documented kernel function: the spec's own record (reports/coverage.ts). */
export const Coverage = CoverageEntry;
export type Coverage = CoverageEntry;

export const ClauseResult = Clause.extend({
  /** Whether this clause decides the gate under the run's profile. */
  binding: z.boolean(),
  status: ClauseStatus,
  cases: z.array(z.string()),
  /** The not-observable reason, or why no case ran it. */
  reason: z.string().optional(),
  expectation: AppliedExpectation.optional(),
  /** The text of the clause's sources, quoted from the kernel-doc snapshot; `source` indexes `sources`. */
  citations: z.array(Citation).optional(),
});
export type ClauseResult = z.infer<typeof ClauseResult>;

export const Gate = z.object({
  passed: z.boolean(),
  /** Binding clauses that failed or errored. */
  failures: z.array(z.string()),
  /** Clauses and cases that passed against an expectation: the expectation is stale. */
  unexpectedPasses: z.array(z.string()),
  /** Binding clauses in scope neither seen to hold or fail nor waived (skipped, not observable): they fail the gate. */
  unverified: z.array(z.string()),
  /** Binding clauses in scope not seen to hold that an expectations entry waives, with its reason. */
  waived: z.array(z.string()),
  summary: z.string(),
});
export type Gate = z.infer<typeof Gate>;

export const RunResults = z
  .object({
    schemaVersion: z.literal(RESULTS_SCHEMA_VERSION),
    tool: z.object({ name: z.literal('rvt-conform'), version: z.string() }),
    run: z.object({
      startedAt: z.iso.datetime(),
      finishedAt: z.iso.datetime(),
      durationMs: z.number(),
      profile: Profile,
      seed: z.number().int(),
      filter: z.string().nullable(),
      interrupted: z.boolean(),
      /** The expectations file given with --expectations, as given. */
      expectations: z.string().nullable(),
      /** Set when no --expectations was given and the adapter's own file applied (the model's expectations/model.yaml). */
      expectationsByDefault: z.boolean().optional(),
    }),
    /** The adapter as the cases ran on it: its capabilities are those whose probe worked (or that have none). */
    adapter: AdapterInfo,
    /** Each claimed capability's probe: a failed one is left out of adapter.capabilities, with why. */
    probes: z.array(CapabilityProbe),
    environment: z.object({
      node: z.string(),
      platform: z.string(),
      arch: z.string(),
      kernel: z.string(),
      ci: z.boolean(),
      /** Set when the run was in the VM: the kernel it booted (as the host named it) and the accelerator. */
      vm: VmRunInfo.optional(),
    }),
    spec: z.object({ snapshot: z.string().nullable(), clauses: z.number().int(), coverage: z.array(Coverage).optional() }),
    totals: z.record(CaseStatus, z.number().int()),
    cases: z.array(CaseResult),
    /** Which functions of the driver under test the kernel ran, case by case (run --kernel-coverage). */
    kernelCoverage: KernelCoverage.optional(),
    clauses: z.array(ClauseResult),
    gate: Gate,
  })
  .meta({ title: 'rvt-conform results.json', description: 'One run of the shared suites against one adapter; every report is derived from it.' });
export type RunResults = z.infer<typeof RunResults>;
