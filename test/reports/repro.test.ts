import { describe, expect, it } from 'vitest';
import { UserError } from '../../spec/errors.js';
import { cString } from '../../reports/repro/c-syntax.js';
import { renderRepro } from '../../reports/repro/program.js';
import { type AnyRecorded, recordedCalls, steps } from '../../reports/repro/recorded.js';
import { Scope } from '../../reports/repro/scope.js';
import type { RunResults } from '../../reports/results-schema.js';
import { capacityMinusOne, casesNamed, resultsFor } from './fixture.js';

const results = () => resultsFor({ cases: casesNamed('post_srq_recv/bad-wr-first', 'post_srq_recv/num_sge-zero', 'post_send/send-delivered') });

describe('repro: from the recorded trace', () => {
  it('types the trace again, u64 values included', async () => {
    const kase = (await results()).cases.find((c) => c.id === 'post_srq_recv/bad-wr-first');
    if (kase === undefined) throw new Error('case missing');
    const post = recordedCalls(kase).find((c) => c.call === 'postSrqRecv');
    expect(post).toMatchObject({ call: 'postSrqRecv', args: { wrs: [{ wr_id: 1n, num_sge: 2 }, { wr_id: 2n }, { wr_id: 3n }] }, result: { rawReturn: -22, badWr: 0 } });
  });

  it('makes one step of consecutive polls of one CQ, and of consecutive event reads', () => {
    const poll = (seq: number, cq: number) => ({ seq, call: 'pollCq', args: { cq, max: 1 }, result: undefined, error: undefined }) as AnyRecorded;
    const events = (seq: number) => ({ seq, call: 'getAsyncEvents', args: {}, result: undefined, error: undefined }) as AnyRecorded;
    const grouped = steps([poll(1, 3), poll(2, 3), poll(3, 5), events(4), events(5), poll(6, 3)]);
    expect(grouped.map((g) => g.map((c) => c.seq))).toEqual([[1, 2], [3], [4, 5], [6]]);
  });
});

describe('repro: the mapping onto the program\'s own resources', () => {
  const scope = new Scope();
  scope.create('mr', 7, 18);
  scope.addMr({ name: 'mr_7', buffer: 'buf_18', addr: 0x7f0000000000n, length: 0x10000, lkey: 256, rkey: 257 });
  scope.addQpNum(3, 'qp_6');

  it('moves an address inside a recorded MR to the same offset of its buffer, and keys to its keys', () => {
    expect(scope.address(0x7f0000008040n)).toBe('ADDR(buf_18, 0x8040)');
    expect(scope.key('lkey', 256, 0x7f0000008040n)).toBe('mr_7->lkey');
    expect(scope.key('rkey', 257)).toBe('mr_7->rkey');
    expect(scope.qpNum(3)).toBe('qp_6->qp_num');
  });

  it('keeps a value no recorded resource has, saying so (a bogus lkey is posted on purpose)', () => {
    expect(scope.address(0x1000n)).toBe('UINT64_C(0x1000) /* recorded address, in no recorded MR */');
    expect(scope.key('lkey', 0x5a5a0100, 0x7f0000008040n)).toBe(`${0x5a5a0100}u /* recorded lkey, names no recorded MR */`);
    expect(scope.ref('qp', 99)).toBe('NULL /* qp 99 was not created in this trace */');
  });

  it('writes C string literals that cannot break out', () => {
    expect(cString('a "b" \\ c?\n')).toBe('"a \\"b\\" \\\\ c\\077\\012"');
  });
});

describe('repro: the program', () => {
  const program = async (id: string, from?: RunResults) => renderRepro(from ?? (await results()), id, 'out/results.json');

  it('compares a kernel-layer errno by name, and bad_wr by index, saying so', async () => {
    const c = await program('post_srq_recv/bad-wr-first');
    expect(c).toContain('check_str(20, "postSrqRecv", "return", "EINVAL", errno_name(ret));');
    expect(c).toContain('check_str(20, "postSrqRecv", "bad_wr", "0", bad_wr_name(bad, &untouched_recv, wr, sizeof(struct ibv_recv_wr), 3));');
    expect(c).toContain('libibverbs returns a positive errno: return values are compared by errno name, sign ignored');
  });

  it("names the device it was recorded on, and for a failed case prints what each broken clause expects, not the recording's value as 'expected'", async () => {
    const failing = await resultsFor({ adapter: capacityMinusOne(), cases: casesNamed('post_srq_recv/fill-to-capacity') });
    const c = await program('post_srq_recv/fill-to-capacity', failing);
    expect(c).toContain(' * recorded: device model-mutant:capacity-minus-one (driver rdmavt (TypeScript model)), through the mutant:capacity-minus-one adapter (kernel layer)');
    expect(c).toContain('puts("note: clause post_srq_recv.capacity.at-least-max_wr (posting 16 WRs (the granted capacity)) expects 0; the recording got -12");');
    expect(c).toContain('puts("0 differences from the recording: it reproduces here, which broke post_srq_recv.capacity.at-least-max_wr, post_srq_recv.capacity.as-reported");');
    expect(c).not.toMatch(/"expected %/);
  });

  it('allocates as many zeroed sges as num_sge says, beyond the sg_list', async () => {
    const c = await program('post_srq_recv/bad-wr-first');
    expect(c).toMatch(/struct ibv_sge sge0\[2\];\n\t\tmemset\(sge0, 0, sizeof sge0\);\n\t\tsge0\[0\] = \(struct ibv_sge\)\{ \.addr = ADDR\(buf_19, 0x8040\), \.length = 64, \.lkey = mr_7->lkey \};\n\t\twr\[0\]\.wr_id = UINT64_C\(0x1\);\n\t\twr\[0\]\.sg_list = sge0;\n\t\twr\[0\]\.num_sge = 2;/);
  });

  it('polls until the completions the harness waited for, and checks each', async () => {
    const c = await program('post_srq_recv/num_sge-zero');
    expect(c).toContain('int n = poll_until(cq_5, wc, 1);');
    expect(c).toMatch(/check_wc\(\d+, 0, &wc\[0\], UINT64_C\(0x5\), IBV_WC_SUCCESS, IBV_WC_RECV, 0, qp_6->qp_num, -1\);/);
  });

  it('refuses a case that is not in the file, or that made no calls (exit 2)', async () => {
    const r = await results();
    await expect(program('post_srq_recv/nope', r)).rejects.toThrow(UserError);
    await expect(program('post_srq_recv/nope', r)).rejects.toThrow(/out\/results\.json has no case 'post_srq_recv\/nope'/);
    const skipped = { ...r, cases: r.cases.map((c) => ({ ...c, status: 'skip' as const, reason: 'the adapter does not provide: srq', trace: [] })) };
    await expect(program('post_srq_recv/bad-wr-first', skipped)).rejects.toThrow(/made no verbs calls .*\(skip: the adapter does not provide: srq\): there is nothing to replay/);
  });
});
