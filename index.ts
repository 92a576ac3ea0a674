/**
 * rvt-conform's public API: what an adapter or a case outside this repository needs, and the
 * pieces of a run (cases, runner, results, reports). Everything not exported here is internal and
 * may change without notice. docs/API.md says what each name is for, with two examples.
 */

// Adapters: the one interface an implementation provides, the calls a session answers, and the registry.
export { type Adapter, AdapterInfo, type Capability, type CapabilityProbe, Profile, type Session } from './adapters/adapter.js';
export { type CallArgs, type CallName, type CallResult, callNames, calls } from './adapters/calls.js';
export { type AdapterDefinition, type AdapterFlag, createAdapter, defineAdapter } from './adapters/registry.js';
export { modelAdapter } from './adapters/model/index.js';
export { type GrpcClientOptions, grpcAdapter } from './adapters/grpc/client.js';
export { type Agent, type AgentOptions, startAgent } from './adapters/grpc/server.js';

// Cases and the runner.
export { type Case, defineCase } from './suites/case.js';
export type { CaseContext } from './suites/context.js';
export { allCases } from './suites/index.js';
export { probeCapabilities } from './suites/probes.js';
export { type CaseRun, type RunOptions, runCases } from './suites/runner.js';

// The contract the cases check.
export { clauses } from './spec/clauses/index.js';
export type { Clause } from './spec/clauses/schema.js';

// Results and reports.
export { type BuildInput, buildResults } from './reports/build.js';
export { RunResults } from './reports/results-schema.js';
export { ALL_FORMATS, type ReportFormat, writeReports } from './reports/write.js';

// Errors as data and the statuses, for adapters and cases to use as the harness does.
export { ImplementationCrash, InfrastructureError, UserError } from './spec/errors.js';
export { CaseStatus, CheckStatus, ClauseStatus, Ran, RunStatus } from './spec/status.js';
