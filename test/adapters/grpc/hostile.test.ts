// Hostile clients against a real agent on loopback: each test is an attack that used to cost the
// agent (or its other clients) something, and checks that it is now refused and logged, and
// that a well-behaved client is still served.
import { connect as connectHttp2 } from 'node:http2';
import { connect, type Socket } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { service as healthService } from 'grpc-health-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Adapter } from '../../../adapters/adapter.js';
import { withToken } from '../../../adapters/grpc/metadata.js';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { encodeRequest, sessionMethod } from '../../../adapters/grpc/stream-codec.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../../adapters/grpc/connections.js';
import { maxStreamsPerConnection, startAgent } from '../../../adapters/grpc/server.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { DEFAULT_LIMITS, type HostLimits, NO_LIMITS } from '../../../adapters/remote/budget.js';
import { UserError } from '../../../spec/errors.js';
import { allCases } from '../../../suites/index.js';
import { referenceModel, referenceRunsOf, runAgainst, sequentialCases } from '../../helpers.js';
import { type Certificates, makeCertificates } from './certificates.js';
import { CRASH_WR_ID, modelWorkerAdapter } from '../remote/model-worker.js';
import { expectSameEvidence, RawClient, serveModel, statusOfCall } from './fixture.js';

const MiB = 1 << 20;
const someCases = allCases.slice(0, 4);
const localStatuses = async () => (await runAgainst(referenceModel(), someCases)).map((r) => r.status);

/** A well-behaved client still gets the local model's results. */
async function stillServes(client: Adapter): Promise<void> {
  expect((await runAgainst(client, someCases)).map((r) => r.status)).toEqual(await localStatuses());
}

const limits = (overrides: Partial<HostLimits>): HostLimits => ({ ...DEFAULT_LIMITS, ...overrides });

describe('a client that creates until the agent runs out of memory', () => {
  it('is refused with RESOURCE_EXHAUSTED at its session budget, then at the agent budget, with a log line each', async () => {
    const served = await serveModel({ limits: limits({ maxSessionMemory: 64 * MiB, maxAgentMemory: 160 * MiB }) });
    const raw = new RawClient(served.agent.address);
    // the attack: deep SRQs (the model allocates each ring), session after session
    const createUntilRefused = async (session: string) => {
      const { pd } = await raw.unary(agentService.AllocPd, {}, session);
      for (let i = 0; i < 100; i++) {
        const code = await statusOfCall(raw.unary(agentService.CreateSrq, { pd, attr: { max_wr: 0x1ffff, max_sge: 1, srq_limit: 0 } }, session));
        if (code !== grpc.status.OK) return { code, created: i };
      }
      return { code: grpc.status.OK, created: 100 };
    };
    // 131072 slots of 128 + 96 bytes: 28 MiB each, two per 64 MiB session
    expect(await createUntilRefused(await raw.openSession())).toEqual({ code: grpc.status.RESOURCE_EXHAUSTED, created: 2 });
    expect(await createUntilRefused(await raw.openSession())).toEqual({ code: grpc.status.RESOURCE_EXHAUSTED, created: 2 });
    // 112 of 160 MiB are held: the third session gets one, then the agent's budget is spent
    expect(await createUntilRefused(await raw.openSession())).toEqual({ code: grpc.status.RESOURCE_EXHAUSTED, created: 1 });
    expect(served.notices.filter((line) => /refused client=127\.0\.0\.1 session=\d+ call=createSrq: over the agent's budget of session memory/.test(line))).toHaveLength(2);
    expect(served.notices.at(-1)).toMatch(/budget of agent memory: createSrq: it would cost 28\.0 MiB and all sessions hold 140\.0 MiB of the agent's 160\.0 MiB/);
    expect(served.agent.host.usage()).toEqual([{ client: '127.0.0.1', sessions: 3, resources: 3 + 5, memory: 5 * 28 * MiB, callsInFlight: 0 }]);
  });

  it('cannot take the agent\'s memory with many sessions: its sessions share one budget, and another client still gets memory', async () => {
    const served = await serveModel({ listen: '[::]:0', token: 't', limits: limits({ maxSessionMemory: 64 * MiB, maxClientMemory: 64 * MiB }) });
    const port = served.agent.address.split(':').at(-1);
    const srq = { max_wr: 0x1ffff, max_sge: 1, srq_limit: 0 };
    const createIn = async (raw: RawClient) => {
      const session = await raw.openSession();
      const { pd } = await raw.unary(agentService.AllocPd, {}, session);
      return statusOfCall(raw.unary(agentService.CreateSrq, { pd, attr: srq }, session));
    };
    const greedy = new RawClient(`127.0.0.1:${port}`, 't');
    expect([await createIn(greedy), await createIn(greedy), await createIn(greedy)]).toEqual([grpc.status.OK, grpc.status.OK, grpc.status.RESOURCE_EXHAUSTED]);
    expect(served.notices.at(-1)).toMatch(/budget of client memory: createSrq: it would cost 28\.0 MiB and 127\.0\.0\.1's sessions hold 56\.0 MiB of its 64\.0 MiB/);
    expect(await createIn(new RawClient(`[::1]:${port}`, 't'))).toBe(grpc.status.OK);
  });

  it('gets its memory back for the agent when it destroys or disconnects', async () => {
    const served = await serveModel({ limits: limits({ maxSessionMemory: 64 * MiB, maxAgentMemory: 64 * MiB }) });
    const session = await served.client().open();
    const { pd } = await session.allocPd({});
    const attr = { max_wr: 0x1ffff, max_sge: 1, srq_limit: 0 };
    const { srq } = await session.createSrq({ pd: pd as number, attr });
    await session.createSrq({ pd: pd as number, attr });
    await expect(session.createSrq({ pd: pd as number, attr })).rejects.toMatchObject({ name: 'InfrastructureError', message: expect.stringMatching(/is full: over the agent's budget/) });
    await session.destroySrq({ srq: srq as number });
    expect((await session.createSrq({ pd: pd as number, attr })).rawReturn).toBe(0);
    await session.close();
    expect(served.agent.host.usage()).toEqual([]);
    await stillServes(served.client());
  });
});

describe('a client that posts enormous lists', () => {
  it('is refused before its request is decoded (a 3 M WR post stalled every client for 15 s)', async () => {
    const served = await serveModel();
    const raw = new RawClient(served.agent.address);
    const s = await raw.openSession();
    const wrs = Array.from({ length: 200_000 }, () => ({ wr_id: '1' }));
    const refused = raw.unary(agentService.PostSrqRecv, { srq: '1', wrs }, s);
    await expect(refused).rejects.toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED, details: expect.stringMatching(/not even decoded/) });
    await stillServes(served.client());
  });

  it('on the session stream: a post over the bound fails that call, one too large to decode ends the session', async () => {
    const served = await serveModel();
    const session = await served.client().open();
    const wrs = (n: number) => Array.from({ length: n }, (_, i) => ({ wr_id: BigInt(i), sg_list: [], num_sge: 0 }));
    // The client reads RESOURCE_EXHAUSTED as the agent being full: an infrastructure error that stops a run.
    await expect(session.postRecv({ qp: 1, wrs: wrs(5000) })).rejects.toMatchObject({ name: 'InfrastructureError', message: expect.stringMatching(/is full: .*5000 WRs in one post/) });
    expect((await session.allocPd({})).rawReturn).toBe(0);
    await expect(session.postRecv({ qp: 1, wrs: wrs(40_000) })).rejects.toMatchObject({ name: 'InfrastructureError', message: expect.stringMatching(/is full: .*not even decoded/) });
    await expect(session.allocPd({})).rejects.toMatchObject({ name: 'InfrastructureError', message: expect.stringMatching(/is full/) });
    await session.close();
    await vi.waitFor(() => expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 }), { timeout: 2000, interval: 20 });
    await stillServes(served.client());
  });

  it('is refused over --max-wrs-per-post WRs, or too many SGEs in one post, before the implementation sees them', async () => {
    const served = await serveModel({ limits: limits({ maxWrsPerPost: 8 }) });
    const raw = new RawClient(served.agent.address);
    const s = await raw.openSession();
    const nine = Array.from({ length: 9 }, (_, i) => ({ wr_id: String(i) }));
    expect(await statusOfCall(raw.unary(agentService.PostRecv, { qp: '1', wrs: nine }, s))).toBe(grpc.status.RESOURCE_EXHAUSTED);
    const sge = { addr: '0', length: 1, lkey: 0 };
    const oneWide = [{ wr_id: '1', sg_list: Array.from({ length: 33 }, () => sge) }];
    expect(await statusOfCall(raw.unary(agentService.PostRecv, { qp: '1', wrs: oneWide }, s))).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(served.notices).toEqual([
      expect.stringMatching(/call=postRecv: over the agent's budget of WRs per post: postRecv: 9 WRs in one post; this agent takes at most 8$/),
      expect.stringMatching(/call=postRecv: over the agent's budget of WRs per post: postRecv: 33 SGEs in one post; this agent takes at most 32$/),
    ]);
  });
});

describe('a client that sends bytes that are not a message', () => {
  // each decodes as no WriteMrRequest: a field cut short, a wire type the protocol has not, a varint of 11 bytes
  const malformed = [Buffer.from([0x0a, 0x05, 0x01]), Buffer.from([0x0f]), Buffer.from([0x08, ...Array(10).fill(0xff), 0x01]), Buffer.from([0x09, 1, 2])];

  it('gets INVALID_ARGUMENT saying so, never INTERNAL, and the agent serves on', async () => {
    const served = await serveModel();
    const raw = new RawClient(served.agent.address);
    const s = await raw.openSession();
    for (const bytes of malformed) {
      const sent = new Promise((resolve, reject) => {
        raw.client.makeUnaryRequest(agentService.WriteMr.path, (b: Buffer) => b, (b: Buffer) => b, bytes, raw.metadata(s), (error, response) => (error ? reject(error) : resolve(response)));
      });
      await expect(sent).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: expect.stringMatching(/^writeMr: the request is not an encoded WriteMrRequest \(.+\)$/) });
    }
    await stillServes(served.client());
  });

  it('on the session stream: the stream ends INVALID_ARGUMENT (its message has no readable id)', async () => {
    const served = await serveModel();
    const raw = new RawClient(served.agent.address);
    const stream = raw.client.makeBidiStreamRequest(agentService.Session.path, (b: Buffer) => b, (b: Buffer) => b, raw.metadata());
    stream.on('data', () => undefined);
    const ended = new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
    stream.write(malformed[0] as Buffer);
    expect(await ended).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: expect.stringMatching(/^session: the request is not an encoded SessionRequest/) });
    await vi.waitFor(() => expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 }), { timeout: 2000, interval: 20 });
  });
});

describe('a client that holds every session', () => {
  it('gets RESOURCE_EXHAUSTED at its own share, and a client from another address still gets in', async () => {
    // listening on every address (so both 127.0.0.1 and ::1 reach it) needs a token
    const served = await serveModel({ listen: '[::]:0', token: 't', limits: limits({ maxSessions: 4, maxSessionsPerClient: 2 }) });
    const port = served.agent.address.split(':').at(-1);
    const v4 = new RawClient(`127.0.0.1:${port}`, 't');
    await v4.openSession();
    await v4.openSession();
    expect(await statusOfCall(v4.openSession())).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(served.notices.at(-1)).toMatch(/refused client=127\.0\.0\.1 session=- call=openSession: .*at most 2 sessions at once per client, and 127\.0\.0\.1 holds them all/);

    const v6 = new RawClient(`[::1]:${port}`, 't');
    await v6.openSession();
    await v6.openSession();
    expect(served.agent.host.usage().map((u) => [u.client, u.sessions])).toEqual([
      ['127.0.0.1', 2],
      ['::1', 2],
    ]);
  });

  it('in a flood of refused streams, has them logged at a bounded rate (the log and the notices), the rest summed up', async () => {
    const lines: string[] = [];
    const served = await serveModel({ limits: limits({ maxSessions: 1 }), log: (line) => lines.push(line), refusalRate: { lines: 5, windowMs: 1000 } });
    const raw = new RawClient(served.agent.address);
    await raw.openSession();
    const codes = await Promise.all(Array.from({ length: 50 }, () => statusOfCall(raw.openSession())));
    expect(new Set(codes)).toEqual(new Set([grpc.status.RESOURCE_EXHAUSTED]));
    await vi.waitFor(() => expect(served.notices).toHaveLength(6), { timeout: 3000, interval: 50 });
    expect(served.notices.at(-1)).toBe('45 more refused in the last 1 s (127.0.0.1: 45)');
    expect(lines.filter((line) => line.includes('status=RESOURCE_EXHAUSTED'))).toHaveLength(5);
  });

  it('finds a full agent RESOURCE_EXHAUSTED, not INVALID_ARGUMENT', async () => {
    const served = await serveModel({ limits: limits({ maxSessions: 1 }) });
    const raw = new RawClient(served.agent.address);
    await raw.openSession();
    expect(await statusOfCall(raw.openSession())).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it('cannot have more calls of one session in progress than --max-calls-in-flight', async () => {
    const model = modelAdapter();
    // a device that takes a while to answer a poll, so calls pile up
    const slow: Adapter = {
      ...model,
      open: async () => {
        const session = await model.open();
        return { ...session, pollCq: async (args) => new Promise((resolve) => setTimeout(() => resolve(session.pollCq(args)), 100)) };
      },
    };
    const served = await serveModel({ adapter: slow, limits: limits({ maxCallsInFlight: 3 }) });
    const session = await served.client().open();
    const { cq } = await session.createCq({ cqe: 4 });
    const polls = await Promise.allSettled(Array.from({ length: 6 }, () => session.pollCq({ cq: cq as number, max: 1 })));
    expect(polls.map((p) => p.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected']);
    expect(served.notices.filter((line) => line.includes('at most 3 calls of one session in progress at once'))).toHaveLength(3);
    await session.close();
  });
});

describe('a client that names what it does not hold', () => {
  it('gets NOT_FOUND for an unknown handle, never INTERNAL, and the session goes on', async () => {
    const served = await serveModel();
    const session = await served.client().open();
    await expect(session.createCq({ cqe: 4 }).then(() => session.destroyCq({ cq: 999 }))).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
      message: expect.stringMatching(/destroyCq: this session holds no cq 999/),
    });
    const { pd } = await session.allocPd({});
    await expect(session.createSrq({ pd: (pd as number) + 1, attr: { max_wr: 4, max_sge: 1, srq_limit: 0 } })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    await expect(session.createQp({ pd: pd as number, init: { qp_type: 'RC', sq_sig_all: false, send_cq: 7, recv_cq: 7, cap: { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 } } })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });
    expect((await session.allocPd({})).rawReturn).toBe(0);
    await session.close();
  });
});

describe('a client whose call crashes the implementation', () => {
  it('loses that session only: a client running cases meanwhile gets the local results', { timeout: 120_000 }, async () => {
    // the model in worker processes, as ibverbs and kernel run: the production worker adapter
    const served = await serveModel({ adapter: modelWorkerAdapter() });
    // Enough cases (two hops a call: gRPC, then the worker's pipe) to be running when the crash comes and after it.
    const cases = sequentialCases.slice(0, 48);
    const local = await referenceRunsOf(cases);
    let running = true;
    const suite = runAgainst(served.client(), cases).finally(() => (running = false));

    const b = await served.client().open();
    const { pd } = await b.allocPd({});
    const { cq } = await b.createCq({ cqe: 4 });
    const cap = { max_send_wr: 1, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
    const { qp } = await b.createQp({ pd: pd as number, init: { qp_type: 'RC', sq_sig_all: false, send_cq: cq as number, recv_cq: cq as number, cap } });
    await expect(b.postRecv({ qp: qp as number, wrs: [{ wr_id: CRASH_WR_ID, sg_list: [], num_sge: 0 }] })).rejects.toMatchObject({
      code: grpc.status.INTERNAL,
      message: expect.stringMatching(/the model worker \(pid \d+\) was killed by SIGSEGV during postRecv/),
    });
    await b.close();
    expect(running, 'the other client was still running its cases when the crash came').toBe(true);

    expectSameEvidence(await suite, local);
    const again = await served.client().open();
    expect((await again.allocPd({})).rawReturn).toBe(0);
    await again.close();
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });
});

/** Opens a TCP connection to the agent that never says anything (and reads what it is sent, so it sees the close). */
function silentConnection(address: string): Promise<Socket> {
  const port = Number(address.split(':').at(-1));
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    socket.resume();
  });
}

const closed = (socket: Socket) => socket.destroyed || socket.readyState === 'closed';

describe('a client that opens connections and says nothing', () => {
  it('has each closed once it has made no call for --first-call-within, and the agent serves others meanwhile', async () => {
    const served = await serveModel({ connections: { maxConnections: 256, maxConnectionsPerClient: 64, firstCallWithinMs: 300 } });
    const sockets = await Promise.all(Array.from({ length: 20 }, () => silentConnection(served.agent.address)));
    await stillServes(served.client());
    await vi.waitFor(() => expect(sockets.filter(closed)).toHaveLength(20), { timeout: 5000, interval: 50 });
    expect(served.notices.filter((line) => /closed connection client=127\.0\.0\.1: no authenticated call within 300 ms/.test(line))).toHaveLength(20);
  });

  it('in a flood, has its closes logged at a bounded rate, the rest summed up per client', async () => {
    const served = await serveModel({ connections: { maxConnections: 256, maxConnectionsPerClient: 64, firstCallWithinMs: 100 }, refusalRate: { lines: 10, windowMs: 1500 } });
    const sockets = await Promise.all(Array.from({ length: 40 }, () => silentConnection(served.agent.address)));
    await vi.waitFor(() => expect(sockets.filter(closed)).toHaveLength(40), { timeout: 5000, interval: 50 });
    await vi.waitFor(() => expect(served.notices).toHaveLength(11), { timeout: 5000, interval: 50 });
    expect(served.notices.slice(0, 10)).toEqual(Array(10).fill(expect.stringMatching(/^closed connection client=127\.0\.0\.1: no authenticated call within 100 ms/)));
    expect(served.notices[10]).toBe('30 more refused in the last 1.5 s (127.0.0.1: 30)');
  });

  it('keeps a connection that has made a call, a health check included', async () => {
    const served = await serveModel({ connections: { maxConnections: 256, maxConnectionsPerClient: 64, firstCallWithinMs: 200 } });
    const raw = new RawClient(served.agent.address);
    const check = healthService.Check as MethodDefinition<{ service: string }, unknown, unknown, { status: string }>;
    expect(await raw.unary(check, { service: '' })).toEqual({ status: 'SERVING' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(served.notices).toEqual([]);
    expect(served.agent.connections.count().get('127.0.0.1')).toBe(1);
  });

  it('cannot hold more than its share of connections: the one past it takes the place of its oldest silent one', async () => {
    const served = await serveModel({ connections: { maxConnections: 256, maxConnectionsPerClient: 5, firstCallWithinMs: 60_000 } });
    const sockets: Socket[] = [];
    for (let i = 0; i < 5; i++) sockets.push(await silentConnection(served.agent.address));
    const extra = await silentConnection(served.agent.address);
    await vi.waitFor(() => expect(closed(sockets[0] as Socket)).toBe(true), { timeout: 2000, interval: 20 });
    expect([...sockets.slice(1), extra].filter(closed)).toHaveLength(0);
    expect(served.agent.connections.count().get('127.0.0.1')).toBe(5);
    expect(served.notices).toEqual([expect.stringMatching(/^closed connection client=127\.0\.0\.1: no authenticated call yet, and a new connection needs its slot$/)]);
    for (const socket of [...sockets, extra]) socket.destroy();
    await vi.waitFor(() => expect(served.agent.connections.count().get('127.0.0.1') ?? 0).toBe(0), { timeout: 2000, interval: 20 });
    await stillServes(served.client());
  });
});

/** A gRPC client on a connection of its own (grpc-js shares one between clients of a target otherwise). */
function ownConnection(address: string, options: grpc.ChannelOptions = {}): grpc.Client {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { ...options, 'grpc.use_local_subchannel_pool': 1 });
  connectionsToClose.push(client);
  return client;
}
const connectionsToClose: grpc.Client[] = [];
afterEach(() => {
  for (const client of connectionsToClose.splice(0)) client.close();
});

/** A health check, which needs no credentials: the call the attacker held its slots with. */
function healthCheck(client: grpc.Client, token?: string): Promise<grpc.status> {
  const check = healthService.Check as MethodDefinition<{ service: string }, unknown, unknown, unknown>;
  const metadata = new grpc.Metadata();
  if (token !== undefined) withToken(metadata, token);
  return statusOfCall(new Promise((resolve, reject) => client.makeUnaryRequest(check.path, check.requestSerialize, check.responseDeserialize, { service: '' }, metadata, (e, r) => (e ? reject(e) : resolve(r)))));
}

/**
 * The attack: ReadMr after ReadMr of an MR of `bytes` on raw HTTP/2, no answer read (so no
 * window update); resolves when the agent closes the connection.
 */
type Method = (...args: unknown[]) => unknown;

/** The reference model with one verb of every session it opens run through `around`: to count or hold the calls that reach it. */
function modelAround(verb: string, around: (call: () => Promise<unknown>) => Promise<unknown>): Adapter {
  return new Proxy(referenceModel(), {
    get(target, key) {
      if (key !== 'open') return Reflect.get(target, key, target) as unknown;
      return async () => {
        const session = await target.open();
        return new Proxy(session, {
          get(s, k) {
            const value = Reflect.get(s, k, s) as unknown;
            if (typeof value !== 'function') return value;
            const bound = (value as Method).bind(s);
            return k === verb ? (...args: unknown[]) => around(async () => bound(...args)) : bound;
          },
        });
      };
    },
  }) as Adapter;
}

/**
 * A session stream that has allocated a PD and registered an MR of `bytes`, and from then on
 * reads nothing; `failed` is how the stream ended. It would take its answers, were it reading
 * (grpc-js refuses a message over 4 MiB by default).
 */
async function sessionStreamUnread(address: string, bytes: number) {
  const client = ownConnection(address, { 'grpc.max_receive_message_length': -1 });
  const stream = client.makeBidiStreamRequest(sessionMethod.path, sessionMethod.requestSerialize, sessionMethod.responseDeserialize, new grpc.Metadata());
  const failed = new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
  const answers: Record<string, { pd?: string; mr?: string } | undefined>[] = [];
  const read = (message: Record<string, { pd?: string; mr?: string } | undefined>) => answers.push(message);
  const answerTo = async (call: 'alloc_pd' | 'reg_mr') => {
    await vi.waitFor(() => expect(answers.find((a) => a[call] !== undefined)).toBeDefined(), { timeout: 2000, interval: 10 });
    return answers.find((a) => a[call] !== undefined)?.[call];
  };
  stream.on('data', read);
  stream.write(encodeRequest(1, 'allocPd', {}));
  const pd = Number((await answerTo('alloc_pd'))?.pd);
  stream.write(encodeRequest(2, 'regMr', { pd, length: bytes, access: [] }));
  const mr = Number((await answerTo('reg_mr'))?.mr);
  stream.off('data', read);
  stream.pause();
  return { stream, failed, mr };
}

async function readMrsUnread(served: Awaited<ReturnType<typeof serveModel>>, bytes: number, reads: number): Promise<void> {
  const raw = new RawClient(served.agent.address);
  const s = await raw.openSession();
  const { pd } = await raw.unary(agentService.AllocPd, {}, s);
  const { mr } = await raw.unary(agentService.RegMr, { pd, length: bytes, access: [] }, s);
  const session = connectHttp2(`http://${served.agent.address}`);
  session.on('error', () => undefined);
  const gone = new Promise<void>((resolve) => session.once('close', resolve));
  const request = agentService.ReadMr.requestSerialize({ mr, offset: '0', length: bytes });
  const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), request]);
  framed.writeUInt32BE(request.length, 1);
  for (let i = 0; i < reads; i++) {
    const stream = session.request({ ':method': 'POST', ':path': agentService.ReadMr.path, 'content-type': 'application/grpc', te: 'trailers', 'rvt-session': s });
    stream.on('error', () => undefined);
    stream.end(framed);
  }
  await gone;
}

describe('a client that asks for answers and never reads them', () => {
  it('has its connection closed past its memory budget of unsent answers, which go with it, and others are served', async () => {
    const served = await serveModel({ limits: limits({ maxMrBytes: 4 * MiB, maxClientMemory: 32 * MiB }) });
    // 8 MiB of hex each
    await readMrsUnread(served, 4 * MiB, 12);
    expect(served.notices).toContainEqual(expect.stringMatching(/^closed connection client=127\.0\.0\.1: it does not read its answers: 3\d\.\d MiB of answers to 127\.0\.0\.1 wait unread, over its budget of client memory \(32\.0 MiB\)$/));
    expect(served.agent.connections.unsent()).toEqual(new Map());
    await stillServes(served.client());
  });
});

describe('a client whose connection was closed for not reading its answers', () => {
  it('has its large calls refused RESOURCE_EXHAUSTED until the collection after the close has run: the closed answers are still in memory', async () => {
    let collections = 0;
    const served = await serveModel({
      limits: limits({ maxMrBytes: 4 * MiB, maxClientMemory: 32 * MiB }),
      // long enough that the calls below come before it
      connections: { ...DEFAULT_CONNECTION_LIMITS, collectAfterMs: 2000 },
      collectGarbage: () => collections++,
    });
    const raw = new RawClient(served.agent.address);
    const session = await raw.openSession();
    const { pd } = await raw.unary(agentService.AllocPd, {}, session);
    const { mr } = await raw.unary(agentService.RegMr, { pd, length: 4 * MiB, access: [] }, session);
    // 1 MiB: its answer fits the raw client's 4 MiB message limit
    const read = () => statusOfCall(raw.unary(agentService.ReadMr, { mr, offset: '0', length: MiB }, session));
    await readMrsUnread(served, 4 * MiB, 12);
    expect(collections).toBe(0);
    expect(served.agent.connections.awaitingCollection().get('127.0.0.1')).toBeGreaterThan(16 * MiB);
    expect(await read()).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(served.notices.at(-1)).toMatch(/^refused client=127\.0\.0\.1 session=\d+ call=readMr: over the agent's budget of unsent answers: readMr: it would hold 6\.0 MiB, .* await collection\)$/);
    await vi.waitFor(() => expect(collections).toBe(1), { timeout: 5000, interval: 50 });
    expect(served.agent.connections.awaitingCollection()).toEqual(new Map());
    expect(await read()).toBe(grpc.status.OK);
  });
});

describe('a client that stops reading under its budget', () => {
  it('has its connection closed when none of its answers could be sent for a minute (here 0.3 s), and its memory goes with it', async () => {
    const served = await serveModel({ connections: { ...DEFAULT_CONNECTION_LIMITS, sendStalledMs: 300 } });
    await readMrsUnread(served, MiB, 2);
    expect(served.notices).toEqual([expect.stringMatching(/^closed connection client=127\.0\.0\.1: it does not read its answers: none sent in 0\.3 s, \d+ bytes waiting$/)]);
    expect(served.agent.connections.unsent()).toEqual(new Map());
    await stillServes(served.client());
  });
});

describe('a client that asks for answers on its session stream and stops reading them', () => {
  it('has its connection closed past its budget: the stream buffer counts too', async () => {
    const served = await serveModel({ limits: limits({ maxMrBytes: 4 * MiB, maxClientMemory: 32 * MiB }) });
    const { stream, failed, mr } = await sessionStreamUnread(served.agent.address, 4 * MiB);
    for (let id = 3; id < 40; id++) stream.write(encodeRequest(id, 'readMr', { mr, offset: 0, length: 4 * MiB }));
    expect((await failed).code).toBe(grpc.status.UNAVAILABLE);
    expect(served.notices).toContainEqual(expect.stringMatching(/^closed connection client=127\.0\.0\.1: it does not read its answers: .* over its budget of client memory \(32\.0 MiB\)$/));
    await vi.waitFor(() => expect(served.agent.connections.unsent()).toEqual(new Map()), { timeout: 2000, interval: 20 });
    await vi.waitFor(() => expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 }), { timeout: 2000, interval: 20 });
    await stillServes(served.client());
  });
});

describe('a client that asks for many large reads at once and reads none', () => {
  it('has no more of them read from its MRs than its budget holds: each counts from the start of its call, before its answer is built', async () => {
    let reads = 0;
    // counts the ReadMr calls that reach the adapter (each builds an answer of 8 MiB of hex here)
    const counting = modelAround('readMr', (call) => {
      reads++;
      return call();
    });
    const served = await serveModel({ adapter: counting, limits: limits({ maxMrBytes: 4 * MiB, maxClientMemory: 32 * MiB }) });
    const { stream, failed, mr } = await sessionStreamUnread(served.agent.address, 4 * MiB);
    // 16 at once, the calls in flight a session may have: each held 8 MiB of hex once read, whatever the budget
    for (let id = 3; id < 19; id++) stream.write(encodeRequest(id, 'readMr', { mr, offset: 0, length: 4 * MiB }));
    expect((await failed).code).toBe(grpc.status.UNAVAILABLE);
    // 24 MiB of room each (the hex, its encoding and its framed copy): one fits 32 MiB, the second closes the connection
    expect(reads).toBe(1);
    await stillServes(served.client());
  });
});

describe('a client that sends many large writes at once', () => {
  it('has those past its budget refused RESOURCE_EXHAUSTED before the MR is written, and the room comes back when they end', async () => {
    // writes reach the model only when let through, so that the ones admitted are in progress together
    let reached = 0;
    let letThrough = () => {};
    const gate = new Promise<void>((resolve) => {
      letThrough = resolve;
    });
    const gated = modelAround('writeMr', async (call) => {
      reached++;
      await gate;
      return call();
    });
    const served = await serveModel({ adapter: gated, limits: limits({ maxMrBytes: 4 * MiB, maxClientMemory: 32 * MiB }) });
    const raw = new RawClient(served.agent.address);
    const session = await raw.openSession();
    const { pd } = await raw.unary(agentService.AllocPd, {}, session);
    const { mr } = await raw.unary(agentService.RegMr, { pd, length: 4 * MiB, access: [] }, session);
    // 8 MiB of hex each, held twice while it runs (the string, and the message it came in): two fit 32 MiB
    const data = Buffer.alloc(4 * MiB, 0x5a).toString('hex');
    const write = () => statusOfCall(raw.unary(agentService.WriteMr, { mr, offset: '0', data }, session));
    const writes = Array.from({ length: 5 }, write);
    await vi.waitFor(() => expect(served.notices.filter((line) => /call=writeMr/.test(line))).toHaveLength(3), { timeout: 10_000, interval: 20 });
    expect(reached).toBe(2);
    expect(served.agent.connections.requests()).toEqual(new Map([['127.0.0.1', 32 * MiB]]));
    expect(served.notices.at(-1)).toMatch(/^refused client=127\.0\.0\.1 session=\d+ call=writeMr: over the agent's budget of requests and unsent answers: writeMr: it would hold 16\.0 MiB, and 127\.0\.0\.1's hold 32\.0 MiB of its 32\.0 MiB$/);
    letThrough();
    expect((await Promise.all(writes)).sort()).toEqual([grpc.status.OK, grpc.status.OK, grpc.status.RESOURCE_EXHAUSTED, grpc.status.RESOURCE_EXHAUSTED, grpc.status.RESOURCE_EXHAUSTED].sort());
    expect(served.agent.connections.requests()).toEqual(new Map());
    expect(await write()).toBe(grpc.status.OK);
    await stillServes(served.client());
  });
});

describe('clients that hold connections without credentials', () => {
  it('keep them only --first-call-within: a call without the token does not keep a connection, one with it does', async () => {
    const served = await serveModel({ token: 't', connections: { maxConnections: 256, maxConnectionsPerClient: 32, firstCallWithinMs: 300 } });
    const stranger = ownConnection(served.agent.address);
    expect(await healthCheck(stranger)).toBe(grpc.status.OK);
    const holder = ownConnection(served.agent.address);
    expect(await healthCheck(holder, 't')).toBe(grpc.status.OK);
    expect(served.agent.connections.count().get('127.0.0.1')).toBe(2);
    await vi.waitFor(() => expect(served.agent.connections.count().get('127.0.0.1')).toBe(1), { timeout: 3000, interval: 50 });
    expect(served.notices).toEqual([expect.stringMatching(/^closed connection client=127\.0\.0\.1: no authenticated call within 300 ms/)]);
  });

  it('cannot lock out a client with the token: the agent full of them, its connection takes the place of the oldest', async () => {
    const served = await serveModel({ token: 't', connections: { maxConnections: 8, maxConnectionsPerClient: 8, firstCallWithinMs: 60_000 } });
    // the attack: every slot held by a connection that made a health check (or a call refused UNAUTHENTICATED)
    const held = Array.from({ length: 8 }, () => ownConnection(served.agent.address));
    expect(await Promise.all(held.map((c) => healthCheck(c)))).toEqual(Array(8).fill(grpc.status.OK));
    expect(served.agent.connections.count().get('127.0.0.1')).toBe(8);
    await stillServes(served.client({ token: 't' }));
    expect(served.notices.filter((line) => line.includes('a new connection needs its slot')).length).toBeGreaterThan(0);
  });

  it('finds an agent whose every slot holds a client with the token full: RESOURCE_EXHAUSTED, saying so', async () => {
    const served = await serveModel({ token: 't', connections: { maxConnections: 2, maxConnectionsPerClient: 8, firstCallWithinMs: 60_000 } });
    const holders = [ownConnection(served.agent.address), ownConnection(served.agent.address)];
    for (const holder of holders) expect(await healthCheck(holder, 't')).toBe(grpc.status.OK);
    await expect(served.client({ token: 't' }).info()).rejects.toMatchObject({
      name: 'InfrastructureError',
      message: expect.stringMatching(/^info: the agent at \S+ is full: the agent has 2 connections open, its limit, each held by an authenticated client$/),
    });
    expect(served.notices.at(-1)).toMatch(/^refused connection client=127\.0\.0\.1: the agent has 2 connections open, its limit$/);
  });
});

describe('a client that opens streams on its connection and never sends on them', () => {
  it('has those past the bound refused (REFUSED_STREAM), the agent holding only the bound, and other clients are served', async () => {
    const few = limits({ maxSessionsPerClient: 1, maxCallsInFlight: 1 });
    const bound = maxStreamsPerConnection(few) as number;
    expect(bound).toBe(18);
    const served = await serveModel({ limits: few });
    const session = connectHttp2(`http://${served.agent.address}`);
    const advertised = new Promise<number | undefined>((resolve) => session.once('remoteSettings', (settings) => resolve(settings.maxConcurrentStreams)));
    // a unary rpc's headers without its message: the agent keeps each stream open, waiting for it
    const streams = Array.from({ length: bound + 4 }, () => {
      const stream = session.request({ ':method': 'POST', ':path': (healthService.Check as MethodDefinition<unknown, unknown>).path, 'content-type': 'application/grpc', te: 'trailers' }, { endStream: false });
      stream.on('error', () => undefined);
      return stream;
    });
    expect(await advertised).toBe(bound);
    await vi.waitFor(() => expect(streams.filter((s) => s.rstCode === 7)).toHaveLength(4), { timeout: 2000, interval: 20 });
    expect(streams.filter((s) => !s.closed)).toHaveLength(bound);
    await stillServes(served.client());
    session.destroy();
  });

  it('is not bounded where the sessions are not (a worker\'s host)', () => {
    expect(maxStreamsPerConnection(NO_LIMITS)).toBeUndefined();
    expect(maxStreamsPerConnection(DEFAULT_LIMITS)).toBe(16 * 17 + 16);
  });
});

describe('an agent exposed with credentials that authenticate nobody', () => {
  let certs: Certificates | undefined;
  const tls = () => {
    certs ??= makeCertificates();
    return { cert: certs.read(certs.files.agentCert), key: certs.read(certs.files.agentKey) };
  };

  it('refuses to listen beyond loopback with server-only TLS, saying why', async () => {
    const start = startAgent({ adapter: modelAdapter(), listen: '0.0.0.0:0', tls: tls() });
    await expect(start).rejects.toThrow(UserError);
    await expect(start).rejects.toThrow(/without a token or client certificates: TLS alone authenticates the agent to its clients, not the clients to the agent/);
  });

  it('listens beyond loopback with client certificates (mutual TLS) or a token', async () => {
    certs ??= makeCertificates();
    const ca = certs.read(certs.files.ca);
    const mtls = await startAgent({ adapter: modelAdapter(), listen: '0.0.0.0:0', tls: { ...tls(), clientCa: ca } });
    await mtls.close();
    const token = await startAgent({ adapter: modelAdapter(), listen: '0.0.0.0:0', token: 'a token' });
    await token.close();
  });
});
