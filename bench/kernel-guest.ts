/**
 * The in-VM half of bench/kernel.ts: the round trip of one post of one receive WR to an SRQ on
 * rxe0 through the rvtc control interface (the kernel session, as the kernel worker runs it: encode,
 * write(), the module's ib_post_srq_recv, read(), decode), against the rxe adapter's native post of
 * one WR (the binding's packed post, as the rxe worker runs it). Prints one JSON line of ns per post.
 */
import { CreateSrqReq, CreatedResp, MrResp, Op, PostReq, RecvWrS, RegMrReq, SgeS, SrqResp } from '../adapters/kernel/abi.js';
import { openControl } from '../adapters/kernel/device-adapter.js';
import { openKernelSession } from '../adapters/kernel/session.js';
import { loadBinding, packRecvWrs } from '../adapters/ibverbs/native/index.js';

const POSTS = 20_000;
const DEVICE = 'rxe0';

export interface GuestRoundTrips {
  /** Nanoseconds per post of one WR: through the kernel session (encode, write, read, decode). */
  kernelSession: number;
  /** The same request pre-encoded, straight through the control session: write() and read() only. */
  kernelPreEncoded: number;
  /** A request that does no verb (COUNT_OBJECTS): the floor of a round trip through /dev/rvtc. */
  kernelEmpty: number;
  native: number;
}

async function kernelNs(): Promise<number> {
  const session = openKernelSession(openControl(DEVICE));
  const { pd } = await session.allocPd({});
  const { srq } = await session.createSrq({ pd: pd as number, attr: { max_wr: POSTS + 1, max_sge: 1, srq_limit: 0 } });
  const { addr, lkey } = await session.regMr({ pd: pd as number, length: 4096, access: ['LOCAL_WRITE'] });
  const wrs = [{ wr_id: 1n, sg_list: [{ addr, length: 64, lkey }], num_sge: 1 }];
  const started = process.hrtime.bigint();
  for (let i = 0; i < POSTS; i++) {
    const { rawReturn } = await session.postSrqRecv({ srq: srq as number, wrs });
    if (rawReturn !== 0) throw new Error(`ib_post_srq_recv returned ${rawReturn} after ${i} posts`);
  }
  const ns = Number(process.hrtime.bigint() - started) / POSTS;
  await session.close();
  return ns;
}

/** The parts of a round trip: the same post pre-encoded, and a request that runs no verb. */
function controlNs(): { preEncoded: number; empty: number } {
  const control = openControl(DEVICE);
  const created = (op: number, payload?: Buffer) => CreatedResp.read(control.request(op as never, payload), 0).handle;
  const pd = created(Op.ALLOC_PD);
  const srq = SrqResp.read(control.request(Op.CREATE_SRQ, CreateSrqReq.encode({ pd, attr: { max_wr: POSTS + 1, max_sge: 1, srq_limit: 0, reserved: 0 } })), 0).handle;
  const mr = MrResp.read(control.request(Op.REG_MR, RegMrReq.encode({ pd, length: 4096, access: 1 })), 0);
  const post = Buffer.concat([
    PostReq.encode({ target: srq, context: 0, n_wr: 1, n_sge: 1 }),
    RecvWrS.encode({ wr_id: 1n, num_sge: 1, n_sge: 1 }),
    SgeS.encode({ addr: mr.addr, length: 64, lkey: mr.lkey }),
  ]);
  const time = (fn: () => void) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < POSTS; i++) fn();
    return Number(process.hrtime.bigint() - started) / POSTS;
  };
  const preEncoded = time(() => control.request(Op.POST_SRQ_RECV, post));
  const empty = time(() => control.request(Op.COUNT_OBJECTS));
  control.close();
  return { preEncoded, empty };
}

function nativeNs(): number {
  const binding = loadBinding();
  const ctx = binding.open(DEVICE);
  const pd = binding.allocPd(ctx).pd as number;
  const mr = binding.regMr(pd, 4096, binding.constants.IBV_ACCESS_LOCAL_WRITE);
  const srq = binding.createSrq(pd, { max_wr: POSTS + 1, max_sge: 1 }).srq as number;
  const packed = packRecvWrs([{ wr_id: 1n, sg_list: [{ addr: mr.addr as bigint, length: 64, lkey: mr.lkey as number }], num_sge: 1 }]);
  const started = process.hrtime.bigint();
  for (let i = 0; i < POSTS; i++) {
    const { ret } = binding.postSrqRecvPacked(srq, packed, 1);
    if (ret !== 0) throw new Error(`ibv_post_srq_recv returned ${ret} after ${i} posts`);
  }
  const ns = Number(process.hrtime.bigint() - started) / POSTS;
  binding.close(ctx);
  return ns;
}

const parts = controlNs();
const result: GuestRoundTrips = { kernelSession: await kernelNs(), kernelPreEncoded: parts.preEncoded, kernelEmpty: parts.empty, native: nativeNs() };
process.stdout.write(`${JSON.stringify(result)}\n`);
