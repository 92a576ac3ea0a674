import { describe, expect, it } from 'vitest';
import { Divergence, sameCompletions } from '../../../suites/fuzz/compare.js';
import type { Side } from '../../../suites/fuzz/side.js';
import type { WorkCompletion } from '../../../spec/verbs/wc.js';

const side = (qpn: number) => ({ qps: [{ qp_num: qpn }] }) as unknown as Side;
const sides = { real: side(17), ref: side(3) };
const flush = (qp_num: number, wr_id: bigint, opcode: WorkCompletion['opcode']): WorkCompletion => ({ wr_id, status: 'WR_FLUSH_ERR', opcode, qp_num, vendor_err: 0, with_imm: false }) as WorkCompletion;

describe('completions of one CQ', () => {
  // rdmavt flushes a QP's receives in rvt_error_qp and its sends later, from the send engine.
  const recv = (qpn: number, id: bigint) => flush(qpn, id, 'RECV');
  const send = (qpn: number, id: bigint) => flush(qpn, id, 'SEND');

  it("agree when only the send queue's and the receive queue's completions interleave otherwise", () => {
    expect(() => sameCompletions('cq', 'rdmavt', sides, [recv(17, 0n), send(17, 2n)], [send(3, 2n), recv(3, 0n)])).not.toThrow();
  });

  it("differ when one queue's own order differs, or a completion is missing (the check has teeth)", () => {
    expect(() => sameCompletions('cq', 'rdmavt', sides, [send(17, 2n), send(17, 1n)], [send(3, 1n), send(3, 2n)])).toThrow(Divergence);
    expect(() => sameCompletions('cq', 'rdmavt', sides, [recv(17, 0n)], [send(3, 2n), recv(3, 0n)])).toThrow(Divergence);
    expect(() => sameCompletions('cq', 'documented', sides, [recv(17, 0n), send(17, 2n)], [send(3, 2n), recv(3, 1n)])).toThrow(Divergence);
  });

  it("tell the queues apart by the reference's opcodes: the implementation's errors may carry none (man ibv_poll_cq)", () => {
    const bare = (qpn: number, id: bigint, status: WorkCompletion['status']) => ({ wr_id: id, status, qp_num: qpn, vendor_err: 0, with_imm: false }) as WorkCompletion;
    // rvt_sim0's: the receive in error, the other receive flushed, then both sends flushed.
    const real = [bare(17, 0n, 'LOC_PROT_ERR'), bare(17, 0n, 'WR_FLUSH_ERR'), bare(17, 1n, 'WR_FLUSH_ERR'), bare(17, 2n, 'WR_FLUSH_ERR')];
    const ref = [{ ...recv(3, 0n), status: 'LOC_PROT_ERR' as const }, send(3, 1n), send(3, 2n), recv(3, 0n)];
    expect(() => sameCompletions('cq', 'rdmavt', sides, real, ref)).not.toThrow();
    expect(() => sameCompletions('cq', 'rdmavt', sides, [real[0], real[2], real[1], real[3]] as WorkCompletion[], ref)).not.toThrow();
    // the sends swapped among themselves: no interleaving gives that
    expect(() => sameCompletions('cq', 'rdmavt', sides, [real[0], real[1], real[3], real[2]] as WorkCompletion[], ref)).toThrow(Divergence);
  });
});
