import { modelAdapter } from '../adapters/model/index.js';
import { WqeRing } from '../adapters/model/ring.js';
import type { RecvWr } from '../spec/verbs/wr.js';
import { emit } from './measure.js';

const TOTAL = 1_000_000;
const LIST = 64;
const DEPTH = 65_536;

/**
 * post_srq_recv throughput of the model through the adapter interface (async session calls,
 * lists of 64) against the same work as a bare ring-buffer loop in plain TypeScript.
 */
async function throughAdapter(): Promise<number> {
  const session = await modelAdapter().open();
  const { pd } = await session.allocPd({});
  const list: RecvWr[] = Array.from({ length: LIST }, (_, i) => ({ wr_id: BigInt(i), sg_list: [{ addr: 0n, length: 64, lkey: 1 }], num_sge: 1 }));
  const started = performance.now();
  let posted = 0;
  while (posted < TOTAL) {
    const { srq } = await session.createSrq({ pd: pd ?? 0, attr: { max_wr: DEPTH, max_sge: 1, srq_limit: 0 } });
    for (let inSrq = 0; inSrq + LIST <= DEPTH && posted < TOTAL; inSrq += LIST, posted += LIST) {
      const out = await session.postSrqRecv({ srq: srq ?? 0, wrs: list });
      if (out.rawReturn !== 0) throw new Error(`post failed: ${out.rawReturn}`);
    }
    await session.destroySrq({ srq: srq ?? 0 });
  }
  return (posted / (performance.now() - started)) * 1000;
}

function bareLoop(): number {
  const started = performance.now();
  let posted = 0;
  while (posted < TOTAL) {
    const ring = new WqeRing<{ wr_id: bigint; sg_list: { addr: bigint; length: number; lkey: number }[] }>(DEPTH + 1);
    for (let inRing = 0; inRing + LIST <= DEPTH && posted < TOTAL; inRing += LIST) {
      for (let i = 0; i < LIST; i++, posted++) ring.push({ wr_id: BigInt(i), sg_list: [{ addr: 0n, length: 64, lkey: 1 }] });
    }
  }
  return (posted / (performance.now() - started)) * 1000;
}

async function main(): Promise<void> {
  await throughAdapter(); // warm-up
  bareLoop();
  const adapter = await throughAdapter();
  const bare = bareLoop();
  const command = 'npm run bench (bench/throughput.ts)';
  emit('throughput', [
    { name: 'model post_srq_recv through the adapter (lists of 64)', value: Math.round(adapter), unit: 'WR/s', command },
    { name: 'bare ring-buffer loop, same WRs', value: Math.round(bare), unit: 'WR/s', command },
    { name: 'adapter / bare loop', value: Number((adapter / bare).toFixed(3)), unit: 'ratio', command },
  ]);
}

await main();
