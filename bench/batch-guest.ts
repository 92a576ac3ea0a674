/**
 * The in-VM half of bench/batch.ts and of test/adapters/kernel/batch.vm.test.ts, on one device:
 * `node dist/bench/batch-guest.js DEVICE check` runs the same fuzz-like sequence one call at a time
 * and as batches (rvtc's BATCH through the kernel worker, as `--adapter kernel` runs it), sends
 * malformed batches to the module, and prints one JSON line (BatchCheck); `... bench` prints
 * commands/s one call at a time against batched (BatchRates), through the kernel worker and, where
 * the native binding is built, the ibverbs worker.
 */
import type { Adapter, Session } from '../adapters/adapter.js';
import { type BatchResult, type BatchStep, executeSteps, runStepsOneByOne } from '../adapters/batch.js';
import { rxeAdapter } from '../adapters/ibverbs/adapter.js';
import { addonPath } from '../adapters/ibverbs/native/index.js';
import { BatchS, MAX_STEPS, Op, RVTC_MAGIC, RVTC_VERSION, ReqHdr } from '../adapters/kernel/abi.js';
import { kernelAdapter } from '../adapters/kernel/adapter.js';
import { KernelRefusal, batchAnswers, batchPayload, frame } from '../adapters/kernel/control.js';
import { openControl } from '../adapters/kernel/device-adapter.js';
import { rcSteps } from '../adapters/rc-steps.js';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** One fuzz-like command: a receive to the SRQ, a SEND that consumes it, the wait for both completions. */
const COMMAND_STEPS = 3;
const COMMANDS = 300;
const CHUNK = 64;

interface Loopback {
  cq: number;
  srq: number;
  sender: number;
}

/** A PD, one CQ, an SRQ and an RC pair connected to each other through port 1, receiving from the SRQ. */
export async function loopback(session: Session): Promise<Loopback> {
  const must = <T>(what: string, r: { rawReturn: number }, value: T | null): T => {
    if (value === null || r.rawReturn !== 0) throw new Error(`${what} returned ${r.rawReturn}`);
    return value;
  };
  const a = await session.allocPd({});
  const pd = must('allocPd', a, a.pd);
  const c = await session.createCq({ cqe: 1024 });
  const cq = must('createCq', c, c.cq);
  const s = await session.createSrq({ pd, attr: { max_wr: 1024, max_sge: 1, srq_limit: 0 } });
  const srq = must('createSrq', s, s.srq);
  const port = await session.queryPort({ port_num: 1 });
  const { gid } = await session.queryGid({ port_num: 1, index: 0 });
  const cap = { max_send_wr: 256, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
  const qps = [];
  for (let i = 0; i < 2; i++) {
    const q = await session.createQp({ pd, init: { qp_type: 'RC', send_cq: cq, recv_cq: cq, srq, cap, sq_sig_all: false } });
    qps.push(must('createQp', q, q.qp === null || q.qp_num === null ? null : { qp: q.qp, qp_num: q.qp_num }));
  }
  const [x, y] = qps as [{ qp: number; qp_num: number }, { qp: number; qp_num: number }];
  for (const [qp, dest] of [
    [x.qp, y.qp_num],
    [y.qp, x.qp_num],
  ] as const) {
    for (const step of rcSteps(port, gid, dest)) must(`modifyQp to ${step.to}`, await session.modifyQp({ qp, attr: step.attr, mask: step.mask }), true);
  }
  return { cq, srq, sender: x.qp };
}

export function commands({ cq, srq, sender }: Loopback, count: number, first = 0): BatchStep[] {
  return Array.from({ length: count }, (_, i): BatchStep[] => {
    const wr_id = BigInt(first + i + 1);
    return [
      { call: 'postSrqRecv', args: { srq, wrs: [{ wr_id, sg_list: [], num_sge: 0 }] } },
      { call: 'postSend', args: { qp: sender, wrs: [{ wr_id, opcode: 'SEND', send_flags: ['SIGNALED'], sg_list: [], num_sge: 0 }] } },
      { call: 'drainCq', args: { cq, expect: 2, waitMs: 5000 } },
    ];
  }).flat();
}

/** A result without what differs between two runs of the same steps (QP numbers, the CPU a post ran on), completions in one order. */
export function comparable(result: BatchResult): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value: unknown) => {
      if (key === 'qp_num' || key === 'src_qp' || key === 'cpu') return undefined;
      if (key === 'completions') return [...(value as { wr_id: bigint; opcode?: string }[])].sort((a, b) => Number(a.wr_id - b.wr_id) || String(a.opcode).localeCompare(String(b.opcode)));
      return typeof value === 'bigint' ? value.toString() : value;
    }),
  );
}

export async function inChunks(session: Session, steps: readonly BatchStep[], chunk: number): Promise<BatchResult> {
  const results: BatchResult['results'] = [];
  for (let at = 0; at < steps.length; at += chunk) {
    const part = await executeSteps(session, steps.slice(at, at + chunk));
    results.push(...part.results);
    if (part.results.some((r) => 'error' in r)) break;
  }
  return { results };
}

/** Malformed BATCH requests, each of which the module must refuse (not oops), and what it said. */
function malformed(device: string): { name: string; refused: boolean; said: string }[] {
  const control = openControl(device);
  const query = { op: Op.QUERY_DEVICE, payload: Buffer.alloc(0) };
  const nested = batchPayload([{ op: Op.BATCH, payload: batchPayload([query]) }]);
  const concurrent = batchPayload([{ op: Op.RUN_CONCURRENT, payload: Buffer.alloc(48) }]);
  const tooMany = BatchS.encode({ count: MAX_STEPS + 1 });
  const cutShort = batchPayload([query, query]).subarray(0, BatchS.size + 24);
  const overlong = Buffer.from(batchPayload([query]));
  ReqHdr.write(overlong, BatchS.size, { magic: RVTC_MAGIC, version: RVTC_VERSION, op: Op.QUERY_DEVICE, len: 4096 });
  const trailing = Buffer.concat([batchPayload([query]), Buffer.alloc(8)]);
  const countsMore = Buffer.from(batchPayload([query]));
  BatchS.write(countsMore, 0, { count: 2 });
  const cases = { nested, concurrent, tooMany, cutShort, overlong, trailing, countsMore };
  try {
    const out = Object.entries(cases).map(([name, payload]) => {
      try {
        control.request(Op.BATCH, payload);
        return { name, refused: false, said: '' };
      } catch (error) {
        return { name, refused: error instanceof KernelRefusal, said: (error as Error).message };
      }
    });
    // a sub-request with a wrong header is dispatched and refused by the module's own check
    const badMagic = Buffer.from(batchPayload([query]));
    ReqHdr.write(badMagic, BatchS.size, { magic: 0, version: RVTC_VERSION, op: Op.QUERY_DEVICE, len: ReqHdr.size });
    const answers = batchAnswers([query], control.request(Op.BATCH, badMagic));
    out.push({ name: 'badMagicSub', refused: answers[0] instanceof KernelRefusal, said: answers[0] instanceof KernelRefusal ? answers[0].message : '' });
    // and after all that, the session still serves
    const alive = control.request(Op.QUERY_DEVICE).length > 0 && control.request(Op.COUNT_OBJECTS).length > 0 && frame(Op.QUERY_DEVICE, Buffer.alloc(0)).length === ReqHdr.size;
    out.push({ name: 'stillServes', refused: !alive, said: '' });
    return out;
  } finally {
    control.close();
  }
}

export interface BatchCheck {
  device: string;
  /** The one-by-one and the batched runs of the same sequence, comparable (u64s as strings). */
  oneByOne: unknown;
  batched: unknown;
  /** DRAIN_CQ of one completion that never comes, waitMs 300: how long it took (ms) and what it answered. */
  drainWaitedMs: number;
  drainAnswer: unknown;
  malformed: { name: string; refused: boolean; said: string }[];
}

async function check(device: string): Promise<BatchCheck> {
  const adapter = kernelAdapter({ device });
  try {
    const run = async (execute: (session: Session, steps: BatchStep[]) => Promise<BatchResult>) => {
      const session = await adapter.open();
      try {
        const rig = await loopback(session);
        const steps = [...commands(rig, 20), { call: 'querySrq', args: { srq: rig.srq } }, { call: 'getAsyncEvents', args: {} }, { call: 'queryQp', args: { qp: 999 } }, { call: 'queryDevice', args: {} }] as BatchStep[];
        return comparable(await execute(session, steps));
      } finally {
        await session.close();
      }
    };
    const oneByOne = await run(runStepsOneByOne);
    const batched = await run((session, steps) => inChunks(session, steps, 7));
    const session = await adapter.open();
    const { cq } = await session.createCq({ cqe: 4 });
    const started = performance.now();
    const drained = await executeSteps(session, [{ call: 'drainCq', args: { cq: cq as number, expect: 1, waitMs: 300 } }]);
    const drainWaitedMs = Math.round(performance.now() - started);
    await session.close();
    return { device, oneByOne, batched, drainWaitedMs, drainAnswer: comparable(drained), malformed: malformed(device) };
  } finally {
    await adapter.dispose();
  }
}

export interface BatchRates {
  device: string;
  /** Fuzz-like commands per second (a receive, a SEND, the wait for both), by adapter. */
  commandsPerSecond: Record<string, { oneByOne: number; batched: number }>;
}

async function rate(adapter: Adapter, execute: (session: Session, steps: BatchStep[]) => Promise<BatchResult>): Promise<number> {
  const session = await adapter.open();
  try {
    const rig = await loopback(session);
    // warm up: the worker's first batch, the driver's first SEND
    await execute(session, commands(rig, 4, 1_000_000));
    const steps = commands(rig, COMMANDS);
    const started = performance.now();
    const { results } = await execute(session, steps);
    const seconds = (performance.now() - started) / 1000;
    const failed = results.find((r) => 'error' in r);
    if (failed !== undefined || results.length !== steps.length) throw new Error(`the run stopped at step ${results.length}: ${JSON.stringify(failed)}`);
    return Math.round(COMMANDS / seconds);
  } finally {
    await session.close();
  }
}

async function bench(device: string): Promise<BatchRates> {
  const adapters: Record<string, () => Adapter> = { kernel: () => kernelAdapter({ device }) };
  // the rxe adapter's ibverbs worker binds rvt_sim0 only as a qib device; rxe0 always
  if (existsSync(addonPath()) && device === 'rxe0') adapters.ibverbs = () => rxeAdapter({ device });
  const commandsPerSecond: BatchRates['commandsPerSecond'] = {};
  for (const [name, make] of Object.entries(adapters)) {
    const adapter = make();
    try {
      commandsPerSecond[name] = {
        oneByOne: await rate(adapter, runStepsOneByOne),
        batched: await rate(adapter, (session, steps) => inChunks(session, steps, CHUNK * COMMAND_STEPS)),
      };
    } finally {
      await adapter.dispose();
    }
  }
  return { device, commandsPerSecond };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [device = 'rxe0', mode = 'bench'] = process.argv.slice(2);
  const out = mode === 'check' ? await check(device) : await bench(device);
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
