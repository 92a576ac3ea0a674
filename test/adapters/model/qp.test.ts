import { describe, expect, it } from 'vitest';
import type { Behaviour } from '../../../adapters/model/behaviour.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { fidelityMutants } from '../../../adapters/mutants/fidelity.js';
import { FuzzCommand } from '../../../suites/fuzz/report-schema.js';
import { replay } from '../../../suites/fuzz/run.js';
import { SRQ } from '../../../suites/fuzz/commands.js';
import { openSide } from '../../../suites/fuzz/side.js';

/**
 * What `fuzz --seed=14120501` met on rvt_sim0 at its run 17 (2026-12-05), shrunk: QP 1 moved to
 * SQD, a send queued there, then QP 0's SEND meets a receive too short for it on QP 1, whose
 * responder error moves it to ERR. rvt_error_qp's schedule_send (qp.c:1311) runs QP 1's engine,
 * which is not running (the stall in SQD is no RVT_S_BUSY), and it flushes the queued send.
 */
const RAN = [
  { kind: 'modify', qp: 1, to: 'SQD', mask: 'valid' },
  { kind: 'send', qp: 1, sends: [{ opcode: 'SEND', length: 0, fromMr: false, numSge: 'list', imm: 0, remote: 'buffer', slot: 0 }] },
  { kind: 'post', wrs: [{ wr_id: '0', sges: [], numSge: 'list' }] },
  { kind: 'send', qp: 0, sends: [{ opcode: 'SEND', length: 1, fromMr: false, numSge: 'list', imm: 0, remote: 'buffer', slot: 0 }] },
  { kind: 'resize', maxWr: 1 },
].map((command) => FuzzCommand.parse(command));

/** The model before the fix, as the mutant of that name keeps it. */
function asItWas(name: string): Behaviour {
  const mutant = fidelityMutants.find((m) => m.name === name);
  if (mutant === undefined) throw new Error(`no fidelity mutant ${name}`);
  return mutant.behaviour;
}

describe("rvt_error_qp on a QP whose sends stopped in SQD", () => {
  it('flushes them: its engine is not running, so schedule_send is taken', async () => {
    const report = await replay({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', ran: RAN, seed: 14120501, path: '0' });
    expect(report.divergence).toBeNull();
  });

  it('the model as it was diverges on that sequence, as rvt_sim0 showed (the test has teeth)', async () => {
    const report = await replay({ adapter: modelAdapter(asItWas('sqd-stall-survives-error'), 'as it was'), reference: modelAdapter(), profile: 'rdmavt', ran: RAN, seed: 14120501, path: '0' });
    expect(report.divergence?.message).toMatch(/^#4 send\(0; SEND:1\): completions of QP 1 \(receiver\): implementation \[\{"wr_id":"0x0","status":"LOC_QP_OP_ERR","qp":1\}\], reference \[\{"wr_id":"0x0","status":"LOC_QP_OP_ERR","qp":1\},\{"wr_id":"0x1","status":"WR_FLUSH_ERR","qp":1\}\]/);
  });
});

describe('a move to RESET (rvt_init_qp)', () => {
  it('forgets the peer, the Q_Key, the access flags and the PSNs, and keeps the retry counts and timers', async () => {
    const side = await openSide(modelAdapter(), SRQ);
    const { qp } = side.qps[2] as { qp: number };
    const before = await side.session.queryQp({ qp });
    expect(before.attr?.dest_qp_num).toBe(side.qps[2]?.qp_num);
    await side.session.modifyQp({ qp, attr: { qp_state: 'RESET' }, mask: ['STATE'] });
    const after = await side.session.queryQp({ qp });
    expect(after.attr).toMatchObject({ dest_qp_num: 0, qkey: 0, qp_access_flags: [], sq_psn: 0, rq_psn: 0, rnr_retry: before.attr?.rnr_retry, min_rnr_timer: before.attr?.min_rnr_timer });
    // A QP in RESET keeps what rvt_init_qp set through RESET -> RESET (rvt_modify_qp resets it no second time).
    await side.session.modifyQp({ qp, attr: { qp_state: 'INIT', qp_access_flags: ['LOCAL_WRITE'], pkey_index: 0, port_num: 1 }, mask: ['STATE', 'ACCESS_FLAGS', 'PKEY_INDEX', 'PORT'] });
    await side.session.modifyQp({ qp, attr: { qp_state: 'RESET' }, mask: ['STATE'] });
    await side.session.modifyQp({ qp, attr: { qp_state: 'RESET' }, mask: ['STATE'] });
    expect((await side.session.queryQp({ qp })).attr?.qp_access_flags).toEqual([]);
  });
});
