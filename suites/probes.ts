import type { Adapter, AdapterInfo, Capability, CapabilityProbe, CaseHost, Profile } from '../adapters/adapter.js';
import { ProbeRecord, type ProbeRequest, parseWire } from './case-record.js';
import { RECORD_WIDTH, RecordKind } from '../adapters/concurrent.js';
import type { CaseContext } from './context.js';
import { createSrq, registerBuffer, SetupError, tryCreateQp } from './fixtures.js';
import { UD_STEPS } from './qp/ud.js';
import { hostedBudgetMs, inSession } from './runner.js';
import { recvWr, sendMessages } from './traffic.js';
import type { TraceEntry } from './verbs.js';
import { InfrastructureError } from '../spec/errors.js';

/** Throws unless the call returned 0: the probe stops at the first refusal. */
function ok(result: { rawReturn: number; errno: string | null }, what: string): void {
  if (result.rawReturn !== 0) throw new SetupError(`${what} returned ${result.rawReturn} (${result.errno ?? 'no errno'})`);
}

/**
 * What a capability needs to work, tried once on the device: each probe is the smallest use of
 * the capability that a case relies on. A claim without a probe here is kept as declared.
 */
/** Tries a capability on the device; resolves with what it saw work, throws with what did not. */
type Probe = (ctx: CaseContext) => Promise<string>;

const PROBES: Partial<Record<Capability, Probe>> = {
  // What defines an SRQ: it is created and takes a receive. Its query is a clause of its own, so a
  // device whose query_srq fails (libsiw: EOPNOTSUPP) still has its SRQ cases run.
  srq: async (ctx) => {
    const pd = await ctx.pd();
    const { srq, attr } = await createSrq(ctx.verbs, pd, { max_wr: 16 });
    const buffer = await registerBuffer(ctx.verbs, pd);
    ok(await ctx.verbs.postSrqRecv({ srq, wrs: [recvWr({ buffer }, 1)] }), 'postSrqRecv of one WR');
    return `createSrq(max_wr 16, max_sge 1) made one (max_wr ${attr.max_wr}) and took a receive`;
  },
  srq_resize: async (ctx) => {
    const { srq } = await createSrq(ctx.verbs, await ctx.pd(), { max_wr: 16 });
    ok(await ctx.verbs.modifySrq({ srq, attr: { max_wr: 32 }, mask: ['MAX_WR'] }), 'modifySrq(MAX_WR 32)');
    const after = await ctx.verbs.querySrq({ srq });
    if ((after.attr?.max_wr ?? 0) < 32) throw new SetupError(`querySrq after a resize to 32 reads max_wr ${after.attr?.max_wr ?? 'nothing'}`);
    return `an SRQ of 16 resized to 32 (query reads ${after.attr?.max_wr})`;
  },
  srq_limit_event: async (ctx) => {
    const { srq } = await createSrq(ctx.verbs, await ctx.pd(), { max_wr: 16 });
    ok(await ctx.verbs.modifySrq({ srq, attr: { srq_limit: 4 }, mask: ['LIMIT'] }), 'modifySrq(LIMIT 4)');
    return 'an SRQ limit of 4 armed';
  },
  rc_loopback: async (ctx) => {
    const pair = await ctx.loopback();
    ok(await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 1)] }), 'postRecv');
    const received = await sendMessages(ctx, pair, 1);
    if (received[0]?.status !== 'SUCCESS') throw new SetupError(`one SEND on the loopback pair: ${received.length === 0 ? 'no receive completion' : `receive completed ${received[0]?.status}`} within ${ctx.waitMs} ms`);
    return 'two RC QPs connected by modify_qp on port 1; one SEND received with SUCCESS';
  },
  ud: async (ctx) => {
    const created = await tryCreateQp(ctx.verbs, await ctx.pd(), { qp_type: 'UD', cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 } });
    ok(created, 'createQp(UD)');
    for (const step of UD_STEPS) ok(await ctx.verbs.modifyQp({ qp: created.qp ?? 0, attr: step.attr, mask: step.mask }), `modifyQp(UD to ${step.to})`);
    return 'a UD QP created and brought to RTS';
  },
  mr_data: async (ctx) => {
    const buffer = await registerBuffer(ctx.verbs, await ctx.pd(), 4096);
    ok(await ctx.verbs.writeMr({ mr: buffer.mr, offset: 8, data: 'c0ffee' }), 'writeMr');
    const read = await ctx.verbs.readMr({ mr: buffer.mr, offset: 8, length: 3 });
    if (read.data !== 'c0ffee') throw new SetupError(`readMr read ${read.data} where writeMr wrote c0ffee`);
    return "an MR's bytes written and read back";
  },
  concurrent: async (ctx) => {
    const plan = { max_wr: 16, srq_limit: 0, posters: [{ first_wr_id: 1, batches: [2] }], num_sge: 0, consumers: [{ messages: 2 }], consumer_depth: 16, resizes: [], arms: [], hardirq_posters: 0, timeout_ms: 10_000 };
    const out = await ctx.verbs.runConcurrent(plan);
    if (out.err !== 0) throw new SetupError(`runConcurrent of 2 WRs, one poster and one consumer, stopped at ${out.stage} with errno ${out.err}`);
    const received = out.records.filter((kind, i) => i % RECORD_WIDTH === 1 && kind === RecordKind.RECV).length;
    if (received !== 2) throw new SetupError(`runConcurrent of 2 WRs recorded ${received} receives`);
    return 'the engine posted 2 WRs to an SRQ of its own and a consumer received both';
  },
  post_contexts: async (ctx) => {
    const pd = await ctx.pd();
    const { srq } = await createSrq(ctx.verbs, pd, { max_wr: 16 });
    // recvWr's sges sit in the upper half of a full-size buffer.
    const buffer = await registerBuffer(ctx.verbs, pd);
    ok(await ctx.verbs.postSrqRecv({ srq, wrs: [recvWr({ buffer }, 1)], context: 'hardirq' }), 'postSrqRecv from hard-IRQ context');
    return 'a receive posted to an SRQ from hard-IRQ context';
  },
};

/** Where a probe stopped: the last call that returned non-zero or threw. */
function refusal(trace: readonly TraceEntry[]): { call?: string; errno?: string } {
  const last = trace.at(-1);
  if (last === undefined) return {};
  const errno = last.error ?? (last.result as { errno?: string | null } | undefined)?.errno ?? undefined;
  return { call: last.call, ...(errno ? { errno } : {}) };
}

/** One claimed capability tried on a fresh session of `adapter`, with the number of calls it made. */
export async function probeOne(adapter: Adapter, info: AdapterInfo, profile: Profile, timeoutMs: number, capability: Capability, signal?: AbortSignal): Promise<ProbeRecord> {
  const probe = PROBES[capability];
  if (probe === undefined) return { capability, ok: true, detail: 'no probe: kept as declared', calls: 0 };
  let detail = '';
  const end = await inSession({ adapter, info, profile, timeoutMs, signal }, async (ctx) => {
    detail = await probe(ctx);
  });
  // the agent gone is no verdict on a capability: the run cannot go on
  const lost = [end.error, end.closeFailure].find((e) => e instanceof InfrastructureError);
  if (lost !== undefined) throw lost;
  const calls = end.trace.length;
  if (end.error === undefined) return { capability, ok: true, detail, calls };
  return { capability, ok: false, detail: end.error instanceof Error ? end.error.message : String(end.error), ...refusal(end.trace), calls };
}

/**
 * A probe run where the implementation lives (the adapter's worker, an agent), as a case is:
 * undefined when the host declines it (the probe then runs here). A probe reported working
 * without a single call saw nothing work, and is not taken.
 */
async function hostedProbe(host: CaseHost, request: ProbeRequest, signal?: AbortSignal, next?: ProbeRequest): Promise<CapabilityProbe | undefined> {
  const { probe: capability } = request;
  const ahead = next === undefined ? undefined : { request: next, budgetMs: hostedBudgetMs(next.timeoutMs) };
  const end = await host.runCase(request, hostedBudgetMs(request.timeoutMs), signal, ahead);
  if (end.kind === 'declined') return undefined;
  if (end.kind === 'lost') {
    // a stopped run is no failure of the agent, whatever its stream's end said
    if (end.error instanceof InfrastructureError && signal?.aborted !== true) throw end.error;
    const why = signal?.aborted ? 'the run was interrupted' : end.timedOut ? `no result after ${request.timeoutMs} ms` : end.error.message;
    return { capability, ok: false, detail: `the probe did not finish: ${why}` };
  }
  const record = ProbeRecord.safeParse(parseWire(end.wire));
  if (!record.success || record.data.capability !== capability) {
    return { capability, ok: false, detail: `harness: the probe's record is malformed: ${record.success ? `it names ${record.data.capability}` : record.error.message}` };
  }
  const { calls, ...probe } = record.data;
  if (probe.ok && calls === 0 && PROBES[capability] !== undefined) return { capability, ok: false, detail: 'harness: the probe was reported working without a call made' };
  return probe;
}

/**
 * Capabilities from evidence: each capability the adapter claims is tried on the device (a fresh
 * session per probe, in the adapter's worker when it runs cases) and kept only when its probe
 * worked. Cases then run with what was seen to work, and results.json records every probe, so a
 * skip says why.
 */
export async function probeCapabilities(
  adapter: Adapter,
  info: AdapterInfo,
  profile: Profile,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ capabilities: Capability[]; probes: CapabilityProbe[] }> {
  const request = (probe: Capability): ProbeRequest => ({ probe, info, profile, timeoutMs });
  const tryOne = async (capability: Capability, next: Capability | undefined): Promise<CapabilityProbe> => {
    const host = adapter.caseHost;
    const hosted = host === undefined ? undefined : await hostedProbe(host, request(capability), signal, next === undefined ? undefined : request(next));
    if (hosted !== undefined) return hosted;
    const { calls: _calls, ...probe } = await probeOne(adapter, info, profile, timeoutMs, capability, signal);
    return probe;
  };
  const claimed = info.capabilities.filter((capability) => PROBES[capability] !== undefined);
  // One after another: each probe is a session of its own, and on a worker adapter (ibverbs,
  // kernel) sessions open at once each start a worker process, which under the VM's emulated CPU
  // costs seconds apiece on two vCPUs (seven at once held the first case back by 20-30 s there).
  // In turn, the run's one worker serves them all, and nothing another probe did can drop a claim.
  const probes: CapabilityProbe[] = [];
  for (const [at, capability] of claimed.entries()) probes.push(await tryOne(capability, claimed[at + 1]));
  const failed = new Set(probes.filter((p) => !p.ok).map((p) => p.capability));
  return { capabilities: info.capabilities.filter((c) => !failed.has(c)), probes };
}
