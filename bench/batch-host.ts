/**
 * The host-side cost of each layer of a device batch (issue 43, item 4), per step, without a VM:
 * the kernel adapter's path (client message -> kernel worker -> SessionHost -> runKernelBatch ->
 * /dev/rvtc -> back) driven with bench/batch-guest.ts's fuzz-like commands (a receive to the SRQ,
 * a SEND, a drain of both completions), with a fake control device that answers every request as
 * rvtc would at once. What the VM measures (bench/batch.ts) is these layers times TCG's slowdown
 * plus the devices' own time, so this says which layer to cut.
 * Run: npm run build && node dist/bench/batch-host.js
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Adapter, Session } from '../adapters/adapter.js';
import { BatchArgs, type BatchStep, executeSteps, parseBatchResult } from '../adapters/batch.js';
import { BatchS, CqResp, CreatedResp, Op, PolledResp, PostedResp, QpResp, RVTC_MAGIC, RespHdr, SrqResp, StatusResp, Wc } from '../adapters/kernel/abi.js';
import { type KernelControl, batchAnswers, batchPayload } from '../adapters/kernel/control.js';
import { openKernelSession, runKernelBatch } from '../adapters/kernel/session.js';
import { decodeRequest, decodeResponse, encodeLine, type Request } from '../adapters/ibverbs/protocol.js';
import { NO_LIMITS } from '../adapters/remote/budget.js';
import { serveWorker } from '../adapters/remote/serve-worker.js';
import { SessionHost } from '../adapters/remote/session-host.js';
import { workerAdapter } from '../adapters/remote/worker-adapter.js';
import { commands } from './batch-guest.js';
import { type Figure, emit } from './measure.js';

/** A chunk as bench/batch-guest.ts sends it: 64 commands of 3 steps. */
const CHUNK_COMMANDS = 64;
const FAKE_DEVICE = 'fake-rvtc';

/** A response as rvtc frames it: the header, then the body. */
function response(op: number, body: Buffer): Buffer {
  const out = Buffer.alloc(RespHdr.size + body.length);
  RespHdr.write(out, 0, { magic: RVTC_MAGIC, op, status: 0, len: out.length });
  body.copy(out, RespHdr.size);
  return out;
}

/** A drain's answer: the receive and the send completion of one command. */
function drained(): Buffer {
  const body = Buffer.alloc(PolledResp.size + 2 * Wc.size);
  PolledResp.write(body, 0, { ret: 0, count: 2 });
  Wc.write(body, PolledResp.size, { wr_id: 1n, opcode: 128, byte_len: 0, qp_num: 17, src_qp: 18 });
  Wc.write(body, PolledResp.size + Wc.size, { wr_id: 1n, opcode: 0, byte_len: 0, qp_num: 18 });
  return body;
}

/**
 * /dev/rvtc at no cost of its own: a create answers the next handle, every post succeeds, every
 * drain finds its two completions, anything else answers status 0. It frames the batch and parses
 * the answer as KernelControl does.
 */
function fakeControl(): KernelControl {
  const answers: Record<number, Buffer> = {
    [Op.POST_SRQ_RECV]: response(Op.POST_SRQ_RECV, PostedResp.encode({ ret: 0, bad_wr: 0 })),
    [Op.POST_SEND]: response(Op.POST_SEND, PostedResp.encode({ ret: 0, bad_wr: 0 })),
    [Op.DRAIN_CQ]: response(Op.DRAIN_CQ, drained()),
  };
  const creates: Record<number, number> = { [Op.ALLOC_PD]: CreatedResp.size, [Op.CREATE_CQ]: CqResp.size, [Op.CREATE_SRQ]: SrqResp.size, [Op.CREATE_QP]: QpResp.size };
  let next = 1;
  const answer = (op: number): Buffer => {
    const size = creates[op];
    if (size === undefined) return answers[op] ?? response(op, StatusResp.encode({ ret: 0 }));
    // every create's answer opens with ret, handle
    const body = Buffer.alloc(size);
    CreatedResp.write(body, 0, { ret: 0, handle: next++ });
    return response(op, body);
  };
  const control = {
    request: (op: Op) => answer(op).subarray(RespHdr.size),
    batch(requests: readonly { op: Op; payload: Buffer }[]) {
      // the bytes a write() would carry, as the real one frames them
      batchPayload(requests);
      // every answer here is a multiple of 8 bytes long, as rvtc pads them
      const body = Buffer.concat([BatchS.encode({ count: requests.length }), ...requests.map(({ op }) => answer(op))]);
      return batchAnswers(requests, body);
    },
    close() {},
  };
  return control as unknown as KernelControl;
}

const fakeAdapter: Adapter = {
  info: async () => {
    throw new Error('not needed');
  },
  open: async () => openKernelSession(fakeControl()),
  dispose: async () => undefined,
};

/**
 * Microseconds per step of `fn` over a chunk, median of `runs` after a warm-up: CPU time of this
 * process (the machine is shared; wall time would count the others' turns), or wall time where
 * the time is spent in another process too.
 */
async function perStep(steps: number, runs: number, fn: () => unknown, clock: 'cpu' | 'wall' = 'cpu'): Promise<number> {
  const now = clock === 'cpu' ? () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; } : () => performance.now();
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = now();
    await fn();
    samples.push(now() - started);
  }
  samples.sort((a, b) => a - b);
  return Math.round(((samples[Math.floor(runs / 2)] as number) * 1000 * 100) / steps) / 100;
}

/** The objects of bench/batch-guest.ts's loopback, created through `create` (a session, or a host that must know the handles). */
async function rig(create: (call: 'allocPd' | 'createCq' | 'createSrq' | 'createQp', args: object) => Promise<unknown>) {
  const handle = async (call: Parameters<typeof create>[0], key: string, args: object) => (await create(call, args) as Record<string, number>)[key] as number;
  const pd = await handle('allocPd', 'pd', {});
  const cq = await handle('createCq', 'cq', { cqe: 1024 });
  const srq = await handle('createSrq', 'srq', { pd, attr: { max_wr: 1024, max_sge: 1, srq_limit: 0 } });
  const cap = { max_send_wr: 256, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
  const sender = await handle('createQp', 'qp', { pd, init: { qp_type: 'RC', send_cq: cq, recv_cq: cq, srq, cap, sq_sig_all: false } });
  return { cq, srq, sender };
}

async function measure(): Promise<Figure[]> {
  const runs = 200;
  const command = 'npm run build && node dist/bench/batch-host.js';
  const figure = (name: string, value: number): Figure => ({ name: `${name}: µs per step`, value, unit: 'µs', command });

  const session = await fakeAdapter.open();
  const host = new SessionHost(fakeAdapter, NO_LIMITS, 'results');
  const id = await host.open();
  const steps = commands(await rig((call, args) => host.call(id, call, args)), CHUNK_COMMANDS);
  const n = steps.length;
  const requestLine = encodeLine({ id: 1, kind: 'batch', session: id, steps } as Request);
  const answer = await host.batch(id, steps);
  if (answer.results.length !== n || answer.results.some((r) => 'error' in r)) throw new Error(`the fake batch stopped: ${JSON.stringify(answer.results.find((r) => 'error' in r))}`);
  const responseLine = encodeLine({ id: 1, ok: true, result: answer });

  const figures = [
    figure('client: the batch as one line (toWire)', await perStep(n, runs, () => encodeLine({ id: 1, kind: 'batch', session: id, steps } as Request))),
    figure('worker: the line decoded (fromWire, the message schema)', await perStep(n, runs, () => decodeRequest(requestLine))),
    figure("worker: the steps' arguments validated (BatchArgs)", await perStep(n, runs, () => BatchArgs.shape.steps.parse(steps))),
    figure('worker: encode, frame, fake rvtc, decode (runKernelBatch)', await perStep(n, runs, () => runKernelBatch(fakeControl(), steps))),
    figure('worker: the whole SessionHost.batch (validation, checks, runKernelBatch, results validated)', await perStep(n, runs, () => host.batch(id, steps))),
    figure('worker: the answer as one line (toWire)', await perStep(n, runs, () => encodeLine({ id: 1, ok: true, result: answer }))),
    figure("client: the answer decoded and validated (fromWire, parseBatchResult)", await perStep(n, runs, () => parseBatchResult((decodeResponse(responseLine) as { result: unknown }).result))),
    figure('in process: executeSteps on the kernel session (no worker)', await perStep(n, runs, () => executeSteps(session, steps))),
  ];

  const adapter = workerAdapter({ adapter: 'fake', script: fileURLToPath(import.meta.url), label: 'fake kernel worker', device: FAKE_DEVICE, remedies: {} });
  try {
    const remote: Session = await adapter.open();
    const remoteSteps = commands(await rig((call, args) => (remote[call] as (a: object) => Promise<unknown>)(args)), CHUNK_COMMANDS);
    figures.push(figure('end to end: executeSteps through a worker process (wall time)', await perStep(n, 100, () => executeSteps(remote, remoteSteps), 'wall')));
    await remote.close();
  } finally {
    await adapter.dispose();
  }
  return figures;
}

/** The kernel worker's batch path (adapters/kernel/kernel-worker.ts) over the fake device. */
function serveFake(): void {
  const host = new SessionHost(fakeAdapter, NO_LIMITS, 'results');
  serveWorker('fake kernel worker', async (request: Request) => {
    switch (request.kind) {
      case 'open':
        return host.open();
      case 'call':
        return host.call(request.session, request.call, request.args);
      case 'batch':
        return host.batch(request.session, request.steps);
      case 'close':
        return host.close(request.session);
      default:
        throw new Error(`the fake worker serves no ${request.kind}`);
    }
  }, () => host.closeAll());
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === FAKE_DEVICE) serveFake();
  else emit('batch-host', await measure());
}
