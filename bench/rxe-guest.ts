/**
 * The in-VM half of bench/rxe.ts: posts receive WRs to SRQs on rxe0 three ways - a JS loop over
 * the binding's postSrqRecvPacked (the path the adapter takes), the same loop in C inside the addon
 * (postSrqRecvLoop), and the plain C program bench/post_loop.c - and prints one JSON line of WRs/s.
 * The old object-array path (postSrqRecv) is measured too, as `bindingObjects`, and also printed
 * as a labelled line on stderr (bench/rxe.ts reports only the figures above).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadBinding, packRecvWrs } from '../adapters/ibverbs/native/index.js';
import { projectRoot } from '../vm/project-root.js';

const TOTAL_WRS = 1_000_000;
/** The object-array path is ~100x slower; a tenth of the WRs gives its rate in a few seconds. */
const OBJECT_WRS = 100_000;
const LIST_LENGTHS = [1, 64] as const;
const DEVICE = 'rxe0';

export interface GuestRates {
  /** WRs per second, by list length. */
  binding: Record<string, number>;
  /** The same through postSrqRecv with an array of WR objects. */
  bindingObjects: Record<string, number>;
  addonLoop: Record<string, number>;
  c: Record<string, number>;
}

const binding = loadBinding();
const ctx = binding.open(DEVICE);
const pd = binding.allocPd(ctx).pd as number;
const mr = binding.regMr(pd, 4096, binding.constants.IBV_ACCESS_LOCAL_WRITE);
const sge = { addr: mr.addr as bigint, length: 64, lkey: mr.lkey as number };

/** A fresh SRQ that holds every WR of one measurement, so no post ever finds it full. */
function withSrq<T>(measure: (srq: number) => T): T {
  const srq = binding.createSrq(pd, { max_wr: TOTAL_WRS, max_sge: 1 }).srq;
  if (srq === null) throw new Error(`createSrq(max_wr ${TOTAL_WRS}) failed on ${DEVICE}`);
  try {
    return measure(srq);
  } finally {
    binding.destroySrq(srq);
  }
}

/**
 * Binding from JS: the list is packed once with packRecvWrs and that buffer posted over and over,
 * exactly as the C baseline (bench/post_loop.c) builds one list and reuses it - the like-for-like
 * comparison. A caller with fresh WRs each time pays packRecvWrs on top.
 */
function bindingRate(listLen: number): number {
  const list = Array.from({ length: listLen }, (_, i) => ({ wr_id: BigInt(i), sg_list: [sge] }));
  const packed = packRecvWrs(list);
  return withSrq((srq) => {
    const started = process.hrtime.bigint();
    for (let posted = 0; posted < TOTAL_WRS; posted += listLen) {
      const { ret } = binding.postSrqRecvPacked(srq, packed, listLen);
      if (ret !== 0) throw new Error(`postSrqRecvPacked returned ${ret} after ${posted} WRs`);
    }
    return TOTAL_WRS / (Number(process.hrtime.bigint() - started) / 1e9);
  });
}

/** The object-array path: each call reads every WR object through node-addon-api property gets. */
function bindingObjectsRate(listLen: number): number {
  const list = Array.from({ length: listLen }, (_, i) => ({ wr_id: BigInt(i), sg_list: [sge] }));
  return withSrq((srq) => {
    const started = process.hrtime.bigint();
    for (let posted = 0; posted < OBJECT_WRS; posted += listLen) {
      const { ret } = binding.postSrqRecv(srq, list);
      if (ret !== 0) throw new Error(`postSrqRecv returned ${ret} after ${posted} WRs`);
    }
    return OBJECT_WRS / (Number(process.hrtime.bigint() - started) / 1e9);
  });
}

function addonLoopRate(listLen: number): number {
  return withSrq((srq) => {
    const { ret, posted, ns } = binding.postSrqRecvLoop(srq, TOTAL_WRS, listLen, sge.lkey, sge.addr);
    if (ret !== 0) throw new Error(`postSrqRecvLoop returned ${ret} after ${posted} WRs`);
    return posted / (ns / 1e9);
  });
}

function cRate(listLen: number): number {
  const program = join(projectRoot(), 'adapters/ibverbs/native/build/post_loop');
  const out = JSON.parse(execFileSync(program, [DEVICE, String(TOTAL_WRS), String(listLen)], { encoding: 'utf8' })) as { ret: number; posted: number; ns: number };
  if (out.ret !== 0) throw new Error(`post_loop returned ${out.ret} after ${out.posted} WRs`);
  return out.posted / (out.ns / 1e9);
}

const rates: GuestRates = { binding: {}, bindingObjects: {}, addonLoop: {}, c: {} };
for (const listLen of LIST_LENGTHS) {
  rates.c[listLen] = cRate(listLen);
  rates.addonLoop[listLen] = addonLoopRate(listLen);
  rates.binding[listLen] = bindingRate(listLen);
  rates.bindingObjects[listLen] = bindingObjectsRate(listLen);
  process.stderr.write(
    `post_srq_recv rate, binding from JS with WR objects (postSrqRecv), lists of ${listLen}: ` +
      `${Math.round(rates.bindingObjects[listLen] as number)} WR/s\n`,
  );
}
binding.close(ctx);
process.stdout.write(`${JSON.stringify(rates)}\n`);
