import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DrainResult } from '../../adapters/batch.js';
import { calls } from '../../adapters/calls.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { fastParse } from '../../spec/fast-parse.js';
import { BadWr, RawPostOutcome } from '../../spec/verbs/outcome.js';
import { u32, u64 } from '../../spec/verbs/ints.js';
import { WorkCompletion } from '../../spec/verbs/wc.js';

/** JSON with u64s and undefined shown, keys in their order: equal only if zod would give the same bytes. */
const show = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x === undefined ? '<undefined>' : x));

function outcome(parse: (v: unknown) => unknown, value: unknown): string {
  try {
    return show(parse(value));
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

const WRONG: unknown[] = ['x', -1, 1.5, 2 ** 32, Number.NaN, Infinity, null, undefined, 5n, -1n, 2n ** 64n, true, [], {}];

/** `value` and many values near it: each leaf wrong in each way, each key missing, an extra key, the keys reversed. */
function near(value: unknown): unknown[] {
  const out: unknown[] = [value, ...WRONG];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const changed of near(item)) out.push(value.map((x, j) => (i === j ? changed : x)));
    });
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const { [key]: _, ...without } = record;
      out.push(without);
      for (const changed of near(record[key])) out.push({ ...record, [key]: changed });
    }
    out.push({ ...record, extra: 1 });
    out.push(Object.fromEntries(Object.entries(record).reverse()));
  }
  return out;
}

function agrees(schema: z.ZodType, values: unknown[]): void {
  const fast = fastParse(schema);
  for (const value of values) expect(outcome(fast, value), show(value)).toBe(outcome((v) => schema.parse(v), value));
}

describe('fastParse', () => {
  it('answers as zod does, value and key order, or throws as zod does, on values near valid ones', () => {
    const wc = { wr_id: 7n, status: 'SUCCESS', opcode: 'RECV', vendor_err: 0, byte_len: 5, imm_data: 3, qp_num: 9, src_qp: 2, with_imm: true };
    const post = { rawReturn: -12, badWr: 1, context: { requested: 'process', hardirq: false, softirq: false, irqs_disabled: false, task: true, preempt_count: 0, cpu: 1 } };
    agrees(u32, near(4));
    agrees(u64, near(2n ** 64n - 1n));
    agrees(BadWr, [...near(0), 'untouched', 'foreign', 'other']);
    agrees(WorkCompletion, near(wc));
    agrees(WorkCompletion, near({ wr_id: 1n, status: 'WR_FLUSH_ERR', qp_num: 1 }));
    agrees(RawPostOutcome, near(post));
    agrees(DrainResult, near({ completions: [wc, { ...wc, opcode: 'SEND', with_imm: false }] }));
    agrees(z.looseObject({ call: z.string() }), near({ call: 'x', result: 1 }));
    agrees(z.array(u32).min(1).max(2), near([1, 2]));
  });

  it("answers every call's result of a model session as zod does", async () => {
    const session = await modelAdapter().open();
    const { pd } = await session.allocPd({});
    const { cq } = await session.createCq({ cqe: 8 });
    const srq = await session.createSrq({ pd: pd as number, attr: { max_wr: 4, max_sge: 1, srq_limit: 0 } });
    const cap = { max_send_wr: 4, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
    const qp = await session.createQp({ pd: pd as number, init: { qp_type: 'RC', send_cq: cq as number, recv_cq: cq as number, srq: srq.srq as number, cap, sq_sig_all: false } });
    const results: [keyof typeof calls, unknown][] = [
      ['queryDevice', await session.queryDevice({})],
      ['createSrq', srq],
      ['createQp', qp],
      ['queryQp', await session.queryQp({ qp: qp.qp as number })],
      ['postSrqRecv', await session.postSrqRecv({ srq: srq.srq as number, wrs: [{ wr_id: 1n, sg_list: [], num_sge: 0 }] })],
      ['postSend', await session.postSend({ qp: qp.qp as number, wrs: [{ wr_id: 2n, opcode: 'SEND', send_flags: ['SIGNALED'], sg_list: [], num_sge: 0 }] })],
      ['pollCq', await session.pollCq({ cq: cq as number, max: 4 })],
      ['getAsyncEvents', await session.getAsyncEvents({})],
    ];
    for (const [call, result] of results) agrees(calls[call].result, near(result));
    await session.close();
  });

  it('leaves a schema with parts it does not model to zod', () => {
    const refined = z.object({ n: z.number().refine((n) => n % 2 === 0) });
    const parse = fastParse(refined);
    expect(parse({ n: 2 })).toEqual({ n: 2 });
    expect(() => parse({ n: 3 })).toThrow();
    agrees(z.object({ s: z.string().transform((s) => s.length) }), near({ s: 'abc' }));
  });
});
