import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { inspect, isDeepStrictEqual } from 'node:util';
import { afterEach, expect } from 'vitest';
import type { Adapter } from '../../../adapters/adapter.js';
import { grpcAdapter, type GrpcClientOptions } from '../../../adapters/grpc/client.js';
import { withSession, withToken } from '../../../adapters/grpc/metadata.js';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { type Agent, type AgentOptions, startAgent } from '../../../adapters/grpc/server.js';
import type { CaseRun } from '../../../suites/runner.js';
import { referenceModel } from '../../helpers.js';

/** A real agent on loopback (port 0), serving the model, with its log lines kept; closed after each test. */
export interface Served {
  agent: Agent;
  log: string[];
  /** Refusals over a budget, connections refused or closed. */
  notices: string[];
  /** A client adapter for this agent; disposed after the test. */
  client(options?: Omit<GrpcClientOptions, 'target'>): Adapter;
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function serveModel(options: Partial<AgentOptions> = {}): Promise<Served> {
  const log: string[] = [];
  const notices: string[] = [];
  const agent = await startAgent({
    adapter: referenceModel(),
    listen: '127.0.0.1:0',
    log: (line) => log.push(line),
    notice: (line) => notices.push(line),
    ...options,
  });
  cleanups.push(() => agent.close());
  return {
    agent,
    log,
    notices,
    client(clientOptions = {}) {
      const adapter = grpcAdapter({ target: agent.address, ...clientOptions });
      cleanups.push(() => adapter.dispose());
      return adapter;
    },
  };
}

/** A poll that found nothing yet: how many of these a wait loop makes depends on how fast each call came back. */
function foundNothing(entry: CaseRun['trace'][number]): boolean {
  const result = entry.result as { completions?: unknown[]; events?: unknown[] } | undefined;
  return (entry.call === 'pollCq' && result?.completions?.length === 0) || (entry.call === 'getAsyncEvents' && result?.events?.length === 0);
}

/** An implementation's own error: the client prefixes the call, the agent and the gRPC status, which a local run has not. */
const own = (message: string | undefined) => message?.replace(/^\w+ on the agent at \S+: INTERNAL: the implementation failed: /, '').replace(/^(exception: )\w+ on the agent at \S+: INTERNAL: the implementation failed: /, '$1');

/** The trace without its timings: no durations, and no wait loop's empty polls. */
const untimed = (trace: CaseRun['trace']) => trace.filter((entry) => !foundNothing(entry)).map(({ call, args, result, error }) => ({ call, args, result, error: own(error) }));

/** A run as evidence: everything but durations and trace timings (and stacks, which name files). */
function evidence(runs: readonly CaseRun[]) {
  return runs.map((run) => ({
    id: run.case.id,
    ran: run.ran,
    status: run.status,
    reason: own(run.reason),
    error: own(run.error?.message),
    checks: run.checks,
    trace: untimed(run.trace),
  }));
}

// inspect, not JSON: evidence holds bigints (64-bit handles and wr_ids)
const shown = (value: unknown) => (value === undefined ? 'nothing' : inspect(value, { depth: null, breakLength: Infinity }));

type Evidence = ReturnType<typeof evidence>;

/**
 * Where two runs' evidence differ, one line a difference: the case, the field and both values (for
 * a trace, its first differing entry). A whole suite's toEqual diff names neither: vitest collapses
 * 166 cases to `[Object]`.
 */
function differences(got: Evidence, want: Evidence): string[] {
  const lines: string[] = [];
  if (got.length !== want.length) lines.push(`${got.length} cases ran, the reference ran ${want.length}`);
  got.forEach((run, at) => {
    const expected = want[at];
    if (expected === undefined) return;
    if (run.id !== expected.id) return void lines.push(`case ${at}: ${run.id}, the reference's is ${expected.id}`);
    for (const field of ['ran', 'status', 'reason', 'error', 'checks'] as const) {
      if (!isDeepStrictEqual(run[field], expected[field])) lines.push(`${run.id}: ${field} ${shown(run[field])}, the reference's ${shown(expected[field])}`);
    }
    const entry = Array.from({ length: Math.max(run.trace.length, expected.trace.length) }, (_, i) => i).find((i) => !isDeepStrictEqual(run.trace[i], expected.trace[i]));
    if (entry !== undefined) lines.push(`${run.id}: trace entry ${entry} of ${run.trace.length} ${shown(run.trace[entry])}, the reference's (of ${expected.trace.length}) ${shown(expected.trace[entry])}`);
  });
  return lines;
}

/** Asserts that `runs` have the reference's evidence (toEqual decides), saying which case and field differ if not. */
export function expectSameEvidence(runs: readonly CaseRun[], reference: readonly CaseRun[]): void {
  const [got, want] = [evidence(runs), evidence(reference)];
  expect(got, differences(got, want).join('\n')).toEqual(want);
}

/** A raw gRPC client of the Agent service, to send what the client adapter never would. */
export class RawClient {
  readonly client: grpc.Client;

  constructor(
    address: string,
    private readonly token?: string,
    credentials = grpc.credentials.createInsecure(),
  ) {
    this.client = new grpc.Client(address, credentials);
    cleanups.push(async () => this.client.close());
  }

  metadata(session?: string): grpc.Metadata {
    const m = new grpc.Metadata();
    if (this.token !== undefined) withToken(m, this.token);
    if (session !== undefined) withSession(m, session);
    return m;
  }

  unary<Req, Res, ReqOut, ResOut>(definition: MethodDefinition<Req, Res, ReqOut, ResOut>, request: NoInfer<Req>, session?: string): Promise<ResOut> {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, this.metadata(session), (error, response) =>
        error ? reject(error) : resolve(response as ResOut),
      );
    });
  }

  /** Opens a lease and returns its session; the lease is cancelled after the test. */
  openSession(): Promise<string> {
    const definition = agentService.OpenSession;
    return new Promise((resolve, reject) => {
      const call = this.client.makeServerStreamRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, {}, this.metadata());
      cleanups.push(async () => call.cancel());
      call.on('error', reject);
      call.once('data', (message: { session?: string }) => resolve(message.session ?? ''));
    });
  }
}

/** The status a rejected raw call ended with. */
export async function statusOfCall(call: Promise<unknown>): Promise<grpc.status> {
  try {
    await call;
    return grpc.status.OK;
  } catch (error) {
    return (error as grpc.ServiceError).code;
  }
}
