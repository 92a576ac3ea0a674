import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { service as healthService } from 'grpc-health-check';
import { describe, expect, it } from 'vitest';
import { AdapterInfo } from '../../../adapters/adapter.js';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { StatusError } from '../../../adapters/grpc/status.js';
import { DEFAULT_LIMITS } from '../../../adapters/remote/budget.js';
import { allCases } from '../../../suites/index.js';
import { MR_LIMIT_BYTES, mrRoundTripAtLimit, referenceModel, referenceSuiteRuns, runAgainst } from '../../helpers.js';
import { expectSameEvidence, RawClient, serveModel, statusOfCall } from './fixture.js';

/** Small enough to break on purpose, large enough for the shared cases. */
const LIMITS = { ...DEFAULT_LIMITS, maxSessions: 4, maxResourcesPerSession: 64, maxQueueDepth: 4096, maxMrBytes: 1 << 20 };

describe('the gRPC agent serving the model', () => {
  it('runs the shared suite with the same statuses, checks and evidence as the local model, and leaves nothing behind', async () => {
    const served = await serveModel();
    const remote = await runAgainst(served.client(), allCases);
    const local = await referenceSuiteRuns();
    expectSameEvidence(remote, local);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });

  it("names the agent's adapter and device, and how it was reached", async () => {
    const served = await serveModel();
    const info = await served.client().info();
    expect(info).toEqual(AdapterInfo.parse({ ...(await referenceModel().info()), via: `grpc://${served.agent.address}` }));
  });

  it('logs one line per call: session, call, status, milliseconds (and one for the session, when it ends)', async () => {
    const served = await serveModel();
    const session = await served.client().open();
    await session.allocPd({});
    await session.close();
    expect(served.log).toEqual([
      expect.stringMatching(/^session=1 call=allocPd status=OK ms=\d+\.\d$/),
      expect.stringMatching(/^session=1 call=session status=OK ms=\d+\.\d$/),
    ]);
  });

  it('still serves a session as a lease and one unary rpc per call (the protocol\'s first form)', async () => {
    const served = await serveModel();
    const remote = await runAgainst(served.client({ transport: 'unary' }), allCases.slice(0, 10));
    expectSameEvidence(remote, await runAgainst(referenceModel(), allCases.slice(0, 10)));
    expect(served.log.filter((line) => / call=openSession status=OK /.test(line)).length).toBeGreaterThan(0);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });

  it('refuses malformed and out-of-range requests with INVALID_ARGUMENT, touching nothing, and keeps serving', async () => {
    const served = await serveModel({ limits: LIMITS });
    const raw = new RawClient(served.agent.address);
    const s = await raw.openSession();
    const refused = [
      raw.unary(agentService.CreateCq, {}, s), // cqe missing
      raw.unary(agentService.CreateCq, { cqe: LIMITS.maxQueueDepth + 1 }, s), // deeper than the agent allows
      raw.unary(agentService.PollCq, { cq: 0, max: 5000 }, s), // max is 1..4096
      raw.unary(agentService.QueryPort, { port_num: 0 }, s),
      raw.unary(agentService.RegMr, { pd: 0, length: LIMITS.maxMrBytes + 1, access: [] }, s), // larger than the agent allows
      raw.unary(agentService.CreateQp, { pd: 0, init: { qp_type: 'XRC', send_cq: 0, recv_cq: 0, cap: {} } }, s),
      raw.unary(agentService.DeallocPd, { pd: '18446744073709551615' }, s), // no handle is that large
      raw.unary(agentService.PostSrqRecv, { srq: 0, wrs: [{ sg_list: [] }] }, s), // wr_id missing
      raw.unary(agentService.WriteMr, { mr: 0, offset: 0, data: 'not hex' }, s),
    ];
    for (const call of refused) expect(await statusOfCall(call)).toBe(grpc.status.INVALID_ARGUMENT);
    expect(served.agent.host.accounting()).toEqual({ sessions: 1, resources: 0 });
    expect(served.log.filter((line) => line.includes('status=INVALID_ARGUMENT'))).toHaveLength(refused.length);

    expect(await raw.unary(agentService.AllocPd, {}, s)).toEqual({ raw_return: 0, pd: expect.any(String) });
    const remote = await runAgainst(served.client(), allCases.slice(0, 5));
    expect(remote.map((r) => r.status)).toEqual((await runAgainst(referenceModel(), allCases.slice(0, 5))).map((r) => r.status));
  });

  it('refuses a message larger than its MR limit can need, and keeps serving', async () => {
    const served = await serveModel({ limits: LIMITS });
    const raw = new RawClient(served.agent.address);
    const s = await raw.openSession();
    const huge = 'ab'.repeat(LIMITS.maxMrBytes + (64 << 10));
    expect(await statusOfCall(raw.unary(agentService.WriteMr, { mr: 0, offset: 0, data: huge }, s))).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(await raw.unary(agentService.AllocPd, {}, s)).toEqual({ raw_return: 0, pd: expect.any(String) });
  });

  it('writes and reads back an MR at the advertised size limit (16 MiB), over both transports', async () => {
    expect(MR_LIMIT_BYTES).toBe(DEFAULT_LIMITS.maxMrBytes);
    const served = await serveModel();
    expect(await mrRoundTripAtLimit(served.client({ transport: 'stream' }))).toBe(true);
    expect(await mrRoundTripAtLimit(served.client({ transport: 'unary' }))).toBe(true);
  }, 60_000);

  it('says which limit a request broke, through the client adapter too', async () => {
    const served = await serveModel({ limits: LIMITS });
    const session = await served.client().open();
    const refused = session.createCq({ cqe: LIMITS.maxQueueDepth + 1 });
    await expect(refused).rejects.toBeInstanceOf(StatusError);
    await expect(refused).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT, message: expect.stringMatching(/createCq .*deeper than 4096/) });
    await session.close();
  });

  it('answers NOT_FOUND for a session that is not open (closed, or never granted)', async () => {
    const served = await serveModel();
    const raw = new RawClient(served.agent.address);
    const s = await raw.openSession();
    await raw.unary(agentService.CloseSession, {}, s);
    expect(await statusOfCall(raw.unary(agentService.AllocPd, {}, s))).toBe(grpc.status.NOT_FOUND);
    expect(await statusOfCall(raw.unary(agentService.AllocPd, {}, 'guessed'))).toBe(grpc.status.NOT_FOUND);
    expect(await statusOfCall(raw.unary(agentService.AllocPd, {}))).toBe(grpc.status.NOT_FOUND);
  });

  it('serves grpc.health.v1', async () => {
    const served = await serveModel({ token: 'a token that health checks do not need' });
    const raw = new RawClient(served.agent.address);
    const check = healthService.Check as MethodDefinition<{ service: string }, unknown, unknown, { status: string }>;
    expect(await raw.unary(check, { service: '' })).toEqual({ status: 'SERVING' });
    expect(await raw.unary(check, { service: 'rvtconform.v1.Agent' })).toEqual({ status: 'SERVING' });
  });
});
