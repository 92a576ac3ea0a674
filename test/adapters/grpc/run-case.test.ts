// rpc RunCases against a real agent on loopback: a built-in case runs on the agent's side in one
// round trip, with the local run's evidence; the agent's budgets still bound it; a crash in one
// client's case costs nobody else anything; and a malformed or unknown request is refused.
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import type { Adapter, CaseHost, HostedCaseEnd, WatchFinding } from '../../../adapters/adapter.js';
import { withToken } from '../../../adapters/grpc/metadata.js';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { decodeEnd } from '../../../adapters/grpc/run-case.js';
import { MAX_WAITING_CASES } from '../../../adapters/grpc/service.js';
import { DEFAULT_LIMITS } from '../../../adapters/remote/budget.js';
import { fromWire, toWire } from '../../../adapters/remote/wire.js';
import { InfrastructureError } from '../../../spec/errors.js';
import { CaseRecord, parseWire } from '../../../suites/case-record.js';
import { agentCases } from '../../../suites/case-worker.js';
import { allCases } from '../../../suites/index.js';
import { probeCapabilities } from '../../../suites/probes.js';
import { runCases } from '../../../suites/runner.js';
import { referenceModel, referenceRunsOf, referenceSuiteRuns, runAgainst, sequentialCases } from '../../helpers.js';
import { modelWorkerAdapter } from '../remote/model-worker.js';
import { expectSameEvidence, RawClient, serveModel } from './fixture.js';

/** The client may not open a session itself: every case must run on the agent. */
const casesOnly = (client: Adapter): Adapter => ({ ...client, open: () => Promise.reject(new Error('the client opened a session: a case ran verb by verb')) });

/** An agent serving the model that runs cases, and its log lines. */
async function caseAgent(options: Parameters<typeof serveModel>[0] = {}) {
  const adapter = options.adapter ?? referenceModel();
  return serveModel({ ...options, adapter, cases: agentCases(adapter) });
}

/** An agent whose first worker spins forever in a case's first postSrqRecv, a client, and that case. */
async function hangingCase() {
  const served = await caseAgent({ adapter: modelWorkerAdapter({ runsCases: true, firstWorkerEnv: { RVT_MODEL_HANG_AT: 'postSrqRecv' } }) });
  const client = casesOnly(served.client());
  return { served, client, info: await client.info(), srqCase: allCases.filter((c) => c.verb === 'post_srq_recv').slice(0, 1) };
}

/** The clauses a hosted case's record checked, and those a case names: which case a record is of. */
const clausesChecked = (end: HostedCaseEnd) => (end.kind === 'done' ? [...new Set(CaseRecord.parse(parseWire(end.wire)).checks.map((c) => c.clause))].sort() : end.kind);
const clausesOf = (id: string | undefined) => [...(allCases.find((c) => c.id === id)?.clauses ?? [])].sort();

const runCaseLines = (log: readonly string[]) => log.filter((line) => / call=runCase\(/.test(line));

describe('rpc RunCase', () => {
  it("runs the whole shared suite on the agent, one RunCase a case, with the local model's evidence", async () => {
    const served = await caseAgent();
    const runs = await runAgainst(casesOnly(served.client()), allCases);
    expectSameEvidence(runs, await referenceSuiteRuns());
    // every case the model can run (one needs a capability it lacks, and is not sent)
    expect(runCaseLines(served.log)).toHaveLength(runs.filter((r) => r.ran !== 'capability-missing').length);
    expect(runs.filter((r) => r.ran !== 'capability-missing').length).toBeGreaterThan(150);
    expect(served.log.filter((line) => / call=(?!runCase|info)/.test(line))).toEqual([]);
    // nothing is held once the cases are over
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });

  it("probes the client's capabilities on the agent too, one RunCase a probe, with the local model's findings", async () => {
    const served = await caseAgent();
    const client = casesOnly(served.client());
    const info = await client.info();
    const hosted = await probeCapabilities(client, info, info.defaultProfile, 10_000);
    expect(hosted).toEqual(await probeCapabilities(referenceModel(), info, info.defaultProfile, 10_000));
    expect(runCaseLines(served.log).map((line) => /call=runCase\(probe (\w+)\)/.exec(line)?.[1])).toEqual(hosted.probes.map((p) => p.capability));
  });

  it('falls back to verb by verb, with the same evidence, on an agent that runs no cases', async () => {
    const served = await serveModel();
    const some = sequentialCases.slice(0, 6);
    const runs = await runAgainst(served.client(), some);
    expectSameEvidence(runs, await referenceRunsOf(some));
    expect(runCaseLines(served.log)).toHaveLength(0);
    // asked for the first case and the one written ahead of it, then not again
    expect(served.log.filter((line) => / call=runCase /.test(line))).toHaveLength(2);
  });

  it('runs the case verb by verb when the client says so', async () => {
    const served = await caseAgent();
    const some = sequentialCases.slice(0, 3);
    await runAgainst(served.client({ casesOnAgent: false }), some);
    expect(served.log.filter((line) => / call=runCase/.test(line))).toEqual([]);
  });

  it("bounds a case by the client's memory: a case over its share stops the run as the agent's limit, never as the implementation's failure", async () => {
    // 4 KiB a session: less than a case's CQ and SRQ together cost by the cost model
    const served = await caseAgent({ limits: { ...DEFAULT_LIMITS, maxSessionMemory: 4096 } });
    const client = casesOnly(served.client());
    const info = await client.info();
    const srqCases = allCases.filter((c) => c.verb === 'post_srq_recv').slice(0, 2);
    const { runs, stoppedBy } = await runCases({ adapter: client, info, cases: srqCases, profile: info.defaultProfile, timeoutMs: 10_000 });
    expect(stoppedBy).toBeInstanceOf(InfrastructureError);
    expect(stoppedBy?.message).toMatch(/the agent's session memory budget refused a call of the case/);
    expect(runs.filter((r) => r.status === 'fail' || r.status === 'error')).toEqual([]);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });

  it("counts a running case as one of the client's sessions: a client that holds them all is refused RESOURCE_EXHAUSTED, and its run stops", async () => {
    const served = await caseAgent({ limits: { ...DEFAULT_LIMITS, maxSessionsPerClient: 2 } });
    const raw = new RawClient(served.agent.address);
    await raw.openSession();
    await raw.openSession();
    const client = casesOnly(served.client());
    const info = await client.info();
    const { runs, stoppedBy } = await runCases({ adapter: client, info, cases: sequentialCases.slice(0, 2), profile: info.defaultProfile, timeoutMs: 10_000 });
    expect(stoppedBy?.message).toMatch(/runCase: the agent at \S+ is full: .*at most 2 sessions at once per client/);
    expect(runs.map((r) => r.status)).toEqual(['skip', 'skip']);
    expect(served.notices.some((line) => /refused client=127\.0\.0\.1 session=- call=runCase/.test(line))).toBe(true);
  });

  it("gives each client's case its own worker: a crash in one client's case is that case's crash, and another client's case runs on", async () => {
    // The first worker to reach a case's post crashes, whichever it is: the agent's own sessions
    // take workers too, so "the first worker" need not be a case's (it was not, once, on Node 24).
    const once = join(await mkdtemp(join(tmpdir(), 'rvt-crash-once-')), 'claimed');
    vi.stubEnv('RVT_MODEL_CRASH_ONCE', `postSrqRecv:${once}`);
    const adapter = modelWorkerAdapter({ runsCases: true });
    const served = await caseAgent({ adapter });
    const srqCase = allCases.filter((c) => c.verb === 'post_srq_recv').slice(0, 1);
    const a = casesOnly(served.client());
    const b = casesOnly(served.client());
    // the first worker (a's) crashes at its first post; b's case, at the same time, gets another
    const [crashed, survived] = await Promise.all([runAgainst(a, srqCase), runAgainst(b, srqCase)]);
    const reference = await referenceRunsOf(srqCase);
    const outcomes = [crashed?.[0], survived?.[0]].map((r) => [r?.ran, r?.status]).sort();
    expect(outcomes).toEqual([['crash', 'error'], [reference[0]?.ran, reference[0]?.status]].sort());
    const lost = [crashed?.[0], survived?.[0]].find((r) => r?.ran === 'crash');
    expect(lost?.reason).toMatch(/killed by SIGSEGV during postSrqRecv in post_srq_recv\//);
    expect(lost?.trace.at(-1)).toMatchObject({ call: 'postSrqRecv' });
    vi.unstubAllEnvs();
  });

  it('kills a case stuck on the agent at its budget: the client gets a timeout with the trace up to the stuck call, and the agent holds nothing after', async () => {
    const { served, client, info, srqCase } = await hangingCase();
    const { runs } = await runCases({ adapter: client, info, cases: srqCase, profile: info.defaultProfile, timeoutMs: 300 });
    expect(runs[0]).toMatchObject({ ran: 'timeout', status: 'error', reason: 'timed out after 300 ms' });
    expect(runs[0]?.trace.at(-1)).toMatchObject({ call: 'postSrqRecv' });
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });

  it("ends a client's case on the agent when the client stops its run (Ctrl-C): the worker is killed and the session given back", async () => {
    const { served, client, info, srqCase } = await hangingCase();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 500);
    const { runs, interrupted } = await runCases({ adapter: client, info, cases: srqCase, profile: info.defaultProfile, timeoutMs: 60_000, signal: stop.signal });
    expect(interrupted).toBe(true);
    expect(runs[0]).toMatchObject({ status: 'skip', reason: 'not run to its end: the run was interrupted' });
    // the case's budget is 3 minutes: the session comes back this soon only if the agent killed its worker
    await expect.poll(() => served.agent.host.accounting(), { timeout: 10_000 }).toEqual({ sessions: 0, resources: 0 });
  });

  it('writes the next case while one runs: the agent runs it as soon as that one ends, without being asked again, and a stream\'s cases one at a time, in order', async () => {
    const inner = agentCases(referenceModel());
    let running = 0;
    let most = 0;
    const started: string[] = [];
    const host: CaseHost = {
      runCase: async (request, budgetMs, signal) => {
        started.push((request as { id: string }).id);
        most = Math.max(most, ++running);
        try {
          // long enough for the case written ahead to arrive meanwhile, so cases run at once would show
          await sleep(30);
          return await inner.host.runCase(request, budgetMs, signal);
        } finally {
          running--;
        }
      },
    };
    const served = await serveModel({ adapter: referenceModel(), cases: { problem: inner.problem, host } });
    const client = served.client();
    const info = await client.info();
    const [a, b] = sequentialCases.map((c) => ({ request: { id: c.id, info, profile: info.defaultProfile, timeoutMs: 5000 }, budgetMs: 20_000 }));
    if (a === undefined || b === undefined || client.caseHost === undefined) throw new Error('two cases and a case host expected');
    const first = await client.caseHost.runCase(a.request, a.budgetMs, undefined, b);
    expect(clausesChecked(first)).toEqual(clausesOf(a.request.id));
    // b runs on the agent though nobody has asked for it since
    await expect.poll(() => runCaseLines(served.log).length).toBe(2);
    const second = await client.caseHost.runCase(b.request, b.budgetMs);
    expect(clausesChecked(second)).toEqual(clausesOf(b.request.id));
    // a run of its own: the next is always written ahead, yet they run one at a time, each once, in order
    const some = sequentialCases.slice(2, 8);
    const runs = await runAgainst(casesOnly(client), some);
    expect(runs.map((r) => r.status)).toEqual((await referenceRunsOf(some)).map((r) => r.status));
    expect(started).toEqual([a, b].map((x) => x.request.id).concat(some.map((c) => c.id)));
    expect(most).toBe(1);
  });

  it('withdraws the case written ahead when the run asks for another: the agent ends it, and the run gets the case it asked for', async () => {
    // the agent's first worker hangs in postSrqRecv: a (no post on an SRQ) passes there, b, written ahead, hangs there
    const { served, client, info, srqCase } = await hangingCase();
    const ask = (id: string | undefined) => ({ request: { id, info, profile: info.defaultProfile, timeoutMs: 60_000 }, budgetMs: 180_000 });
    const [a, b, c] = [ask('create_qp/caps-granted'), ask(srqCase[0]?.id), ask(sequentialCases.find((k) => k.verb === 'create_srq')?.id)];
    if (client.caseHost === undefined) throw new Error('a case host expected');
    await client.caseHost.runCase(a.request, a.budgetMs, undefined, b);
    await expect.poll(() => served.agent.host.accounting().sessions).toBe(1);
    const asked = await client.caseHost.runCase(c.request, c.budgetMs);
    expect(clausesChecked(asked)).toEqual(clausesOf(c.request.id));
    // b's budget is 3 minutes: it is over this soon only because the client withdrew it
    await expect.poll(() => served.agent.host.accounting(), { timeout: 10_000 }).toEqual({ sessions: 0, resources: 0 });
  });

  it('keeps at most 8 cases of a stream waiting behind the one running; refuses more RESOURCE_EXHAUSTED, with a notice', async () => {
    const { served, info, srqCase } = await hangingCase();
    const stuck = { id: srqCase[0]?.id, info, profile: info.defaultProfile, timeoutMs: 60_000 };
    const messages = Array.from({ length: 1 + MAX_WAITING_CASES + 2 }, (_, i) => ({ id: String(i + 1), request: toWire(stuck), budget_ms: '180000' }));
    const { answers: refused } = await rawCases(served.agent.address, undefined, messages, 2);
    expect(refused.map((a) => [a.id, a.code])).toEqual([
      ['10', grpc.status.RESOURCE_EXHAUSTED],
      ['11', grpc.status.RESOURCE_EXHAUSTED],
    ]);
    expect(refused[0]?.details).toMatch(/8 cases of this stream are waiting their turn already/);
    expect(served.notices.some((line) => /refused client=127\.0\.0\.1 session=- call=runCase/.test(line))).toBe(true);
    await expect.poll(() => served.agent.host.accounting(), { timeout: 10_000 }).toEqual({ sessions: 0, resources: 0 });
  });

  it('answers a malformed, unknown or self-limited request INVALID_ARGUMENT and serves the next on the same stream; refuses a stream without the token UNAUTHENTICATED', async () => {
    const served = await caseAgent({ token: 'secret' });
    const info = await referenceModel().info();
    const good = { id: sequentialCases[0]?.id, info, profile: info.defaultProfile, timeoutMs: 5000 };
    const bodies: unknown[] = ['{not json', { ...good, id: 'no/such-case' }, { ...good, timeoutMs: -1 }, { ...good, limits: { ...DEFAULT_LIMITS, maxSessionMemory: 2 ** 40 } }, 'x'.repeat(300 << 10), good];
    const messages = bodies.map((body, i) => ({ id: String(i + 1), request: typeof body === 'string' ? body : toWire(body), budget_ms: '10000' }));
    const { answers, status } = await rawCases(served.agent.address, 'secret', messages);
    expect(status).toBe(grpc.status.OK);
    const byId = new Map(answers.map((a) => [Number(a.id), a]));
    for (let i = 1; i <= 5; i++) expect(byId.get(i)).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    expect(byId.get(3)?.details).toMatch(/timeoutMs/);
    const end = decodeEnd(byId.get(6)?.end ?? '');
    expect(end?.kind === 'done' ? fromWire(end.wire) : end).toMatchObject({ ran: 'ok', status: 'pass' });
    expect((await rawCases(served.agent.address, undefined, messages.slice(-1))).status).toBe(grpc.status.UNAUTHENTICATED);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });
});

describe("rpc RunCase and the agent's machine's kernel log", () => {
  it('fails a case that held on the agent when its watch saw a splat meanwhile, with the lines; an oops there stops the run', async () => {
    const splat: WatchFinding = { problem: 'the kernel logged a splat while the case ran', lines: ['[1.0] WARNING: CPU: 0 PID: 9 at drivers/infiniband/sw/rdmavt/qp.c:2041'], fatal: false };
    const oops: WatchFinding = { problem: 'the kernel oopsed while the case ran', lines: ['[2.0] Oops: 0002 [#1] PREEMPT SMP NOPTI'], fatal: true };
    // the agent's own watch, one finding a case in turn: the client has no watch, and cannot read that log
    const findings: (WatchFinding | undefined)[] = [undefined, splat, oops];
    const served = await caseAgent({ adapter: { ...referenceModel(), watch: { start: () => ({ end: () => findings.shift() }) } } });
    const client = casesOnly(served.client());
    expect(client.watch).toBeUndefined();
    const cases = sequentialCases.filter((c) => c.verb === 'post_srq_recv').slice(0, 4);
    const runs = await runAgainst(client, cases);
    expect(runs.map((r) => r.status)).toEqual(['pass', 'fail', 'fail', 'error']);
    const failed = (runs[1]?.checks ?? []).filter((c) => c.status === 'fail');
    expect(failed.map((c) => c.clause)).toEqual([...(cases[1]?.clauses ?? [])]);
    expect(failed.every((c) => c.what === splat.problem && JSON.stringify(c.actual) === JSON.stringify(splat.lines))).toBe(true);
    expect(runs[2]?.stopsRun).toMatch(/^the kernel oopsed while the case ran during post_srq_recv\//);
    expect(runs[3]?.reason).toMatch(/^not run: the kernel oopsed while the case ran/);
  });
});

/**
 * Writes `messages` at once on a RunCases stream of its own and ends it once each is answered (or
 * cancels it once `wanted` are, when fewer): the answers, and the stream's status.
 */
async function rawCases(
  address: string,
  token: string | undefined,
  messages: object[],
  wanted = messages.length,
): Promise<{ answers: { id: string; end?: string; code?: number; details?: string }[]; status: grpc.status }> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  if (token !== undefined) withToken(metadata, token);
  const { path, requestSerialize, responseDeserialize } = agentService.RunCases as MethodDefinition<object, object>;
  const stream = client.makeBidiStreamRequest(path, requestSerialize, responseDeserialize, metadata);
  const answers: { id: string; end?: string; code?: number; details?: string }[] = [];
  try {
    return await new Promise((resolve) => {
      stream.on('data', (answer: { id: string }) => {
        answers.push(answer);
        if (answers.length === messages.length) stream.end();
        else if (answers.length === wanted) stream.cancel();
      });
      stream.on('error', () => undefined);
      stream.on('status', ({ code }: grpc.StatusObject) => resolve({ answers, status: code }));
      for (const message of messages) stream.write(message);
    });
  } finally {
    client.close();
  }
}
