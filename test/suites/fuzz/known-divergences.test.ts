import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modelAdapter } from '../../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { loadExpectations } from '../../../reports/expectations/load.js';
import { type FatalFinding, isDivergenceId, isFatalId, isFuzzExpectationId, knownDivergence, knownFatal, knownFatalText } from '../../../suites/fuzz/known-divergences.js';
import { fuzz } from '../../../suites/fuzz/run.js';

const mutant = (name: string) => {
  const m = mutants.find((x) => x.name === name);
  if (m === undefined) throw new Error(`no mutant ${name}`);
  return mutantAdapter(m);
};

describe('divergences the expectations name', () => {
  it('are ids of a regular expression; anything else is not one', () => {
    expect(isDivergenceId('divergence:RETRY_EXC_ERR')).toBe(true);
    expect(isDivergenceId('divergence:')).toBe(false);
    expect(isDivergenceId('divergence:(unclosed')).toBe(false);
    expect(isDivergenceId('splat:qp.c:2041')).toBe(false);
  });

  it('are met by a message the expression matches, by a fail entry only', () => {
    const entry = { id: 'divergence:QP 3 \\(self-rq\\): implementation \\[[^\\]]*RETRY_EXC_ERR', status: 'fail' };
    const message = '#24 modify(3; ERR/valid) RTS->ERR: completions of QP 3 (self-rq): implementation [{"wr_id":"0x2","status":"RETRY_EXC_ERR","qp":3}], reference [...]';
    expect(knownDivergence(message, [entry])).toBe(entry);
    expect(knownDivergence(message.replace('RETRY_EXC_ERR', 'WR_FLUSH_ERR'), [entry])).toBeUndefined();
    expect(knownDivergence(message, [{ ...entry, status: 'pass' }])).toBeUndefined();
  });

  it("end the run that meets one, recorded, and fuzzing goes on; an entry that does not match leaves the divergence (the check has teeth)", async () => {
    const run = (id: string) => fuzz({ adapter: mutant('lifo-consumption'), reference: modelAdapter(), profile: 'rdmavt', runs: 40, seed: 5, knownWarnings: [{ id, status: 'fail' }] });
    const known = await run('divergence:completions of QP \\d');
    expect(known.divergence).toBeNull();
    expect(known.runs).toBe(40);
    expect(known.expectedDivergences).toEqual([{ id: 'divergence:completions of QP \\d', message: expect.stringMatching(/completions of QP \d/), runs: expect.any(Number) }]);
    const other = await run('divergence:no message says this');
    expect(other.divergence?.message).toMatch(/completions of QP/);
    expect(other.expectedDivergences).toBeUndefined();
  }, 60_000);
});

// Messages shaped as fuzz.json recorded them (stability-report/s13: fuzz10-h, fuzz10-a).
const late = (ms: number) => ` (after its drain gave up, ${ms} ms more were waited)`;
const modifyToErr = `#41 modify(3; ERR/valid) RTS->ERR: completions of QP 3 (self-rq): implementation [{"wr_id":"0x1","status":"RETRY_EXC_ERR","qp":3}], reference [{"wr_id":"0x1","status":"WR_FLUSH_ERR","qp":3},{"wr_id":"0x2","status":"WR_FLUSH_ERR","qp":3}]${late(20000)}`;
const responderErr = (sends: string, implementation = '') =>
  `#11 send(0; ${sends}): completions of QP 1 (receiver): implementation [${implementation}], reference [{"wr_id":"0x1","status":"WR_FLUSH_ERR","qp":1}]${late(5000)}`;

const known = await loadExpectations(new URL('../../../expectations/fuzz-rdmavt.yaml', import.meta.url).pathname, { knownIds: { has: isFuzzExpectationId }, today: '2026-12-05' });
const divergences = known.filter((e) => e.id !== undefined && isDivergenceId(e.id));
const [modify, responder] = divergences;

describe("rdmavt's lost flushes named in expectations/fuzz-rdmavt.yaml", () => {
  it("tell the modify to ERR racing the loopback from the responder's error racing the RNR NAK, each by its own entry", () => {
    expect(divergences).toHaveLength(2);
    expect(knownDivergence(modifyToErr, known)).toBe(modify);
    expect(knownDivergence(responderErr('ATOMIC_FETCH_AND_ADD:0>bogus:46'), known)).toBe(responder);
    expect(knownDivergence(modifyToErr, divergences.slice(1))).toBeUndefined();
    expect(knownDivergence(responderErr('ATOMIC_FETCH_AND_ADD:0>bogus:46'), divergences.slice(0, 1))).toBeUndefined();
  });

  // Any atomic errs the responder: the fuzzer's QPs grant no REMOTE_ATOMIC (rc-steps.ts).
  it('name the responder path for an atomic or a bogus rkey among the sends, beside a receive the implementation did complete', () => {
    const recv = '{"wr_id":"0x7","status":"SUCCESS","qp":1,"opcode":"RECV","with_imm":false,"byte_len":12,"src_qp":0}';
    expect(knownDivergence(responderErr('SEND:12, RDMA_READ:31>bogus:16'), known)).toBe(responder);
    expect(knownDivergence(responderErr('ATOMIC_CMP_AND_SWP:0>mr:3', recv), known)).toBe(responder);
  });

  it('leave every other shortfall a divergence: a flush that came, one not waited for, another command or QP', () => {
    const flushed = '{"wr_id":"0x1","status":"WR_FLUSH_ERR","qp":1}';
    expect(knownDivergence(responderErr('ATOMIC_FETCH_AND_ADD:0>bogus:46', flushed), known)).toBeUndefined();
    expect(knownDivergence(responderErr('ATOMIC_FETCH_AND_ADD:0>bogus:46').replace(late(5000), ''), known)).toBeUndefined();
    expect(knownDivergence(responderErr('SEND:12, RDMA_WRITE:8>buffer:3'), known)).toBeUndefined();
    const dereg = `#2 cycleMr() dereg: completions of QP 0 (sender): implementation [], reference [{"wr_id":"0x1","status":"WR_FLUSH_ERR","qp":0}]${late(5000)}`;
    expect(knownDivergence(dereg, known)).toBeUndefined();
  });
});

// The lockup as fuzz --seed 14120504 recorded it on rvt_sim0 (the watch's finding, the last commands up to it).
const lockup = JSON.parse(readFileSync(new URL('../../fixtures/fuzz/srq-resize-lockup-finding.json', import.meta.url), 'utf8')) as FatalFinding;
// The same bug with the guest silent (fuzz --seed=15120503 --path 639): no line at all.
const freeze = JSON.parse(readFileSync(new URL('../../fixtures/fuzz/srq-resize-freeze-finding.json', import.meta.url), 'utf8')) as FatalFinding;

describe("rdmavt's SRQ resize lockup named in expectations/fuzz-rdmavt.yaml (a `fatal:` entry: a new boot goes on)", () => {
  const fatal = known.filter((e) => e.id !== undefined && isFatalId(e.id));

  it('is one entry, matched by the finding fuzz --seed 14120504 recorded, its backtrace and the resize in its run', () => {
    expect(fatal).toHaveLength(2);
    expect(knownFatal(lockup, known)).toBe(fatal[0]);
    expect(knownFatalText(lockup).split('\n').at(-1)).toMatch(/^sequence: .*resize\(10\), send\(0; /);
    // The same stall seen by a boot's relay that stopped answering: the problem says so, the console has the lines.
    expect(knownFatal({ ...lockup, problem: 'no answer within 30000 ms during #40 resize(10) .. #52 send(0; SEND_WITH_IMM:38)' }, known)).toBe(fatal[0]);
  });

  it('leaves any other finding one: no resize in the run, another backtrace, an oops', () => {
    expect(knownFatal({ ...lockup, sequence: lockup.sequence.filter((c) => !c.startsWith('resize(')) }, known)).toBeUndefined();
    expect(knownFatal({ ...lockup, lines: lockup.lines.map((l) => l.replace('rvt_get_rwqe', 'rvt_post_recv')) }, known)).toBeUndefined();
    expect(knownFatal({ ...lockup, problem: 'BUG: kernel NULL pointer dereference, address: 0000000000000000', lines: lockup.lines.filter((l) => !/rcu|lockup/.test(l)) }, known)).toBeUndefined();
  });

  it('and a second for the silent freeze: a batch that begins or ends with a resize never answered, no line at all (--seed=15120503 --path 639)', () => {
    expect(knownFatal(freeze, known)).toBe(fatal[1]);
    expect(knownFatal({ ...freeze, problem: freeze.problem.replace('#38 resize(11) .. ', '#38 post(1) .. ') }, known)).toBeUndefined();
    expect(knownFatal({ ...freeze, problem: freeze.problem.replace('#38 resize(11) .. #45 send', '#38 send(1) .. #45 resize') }, known)).toBe(fatal[1]);
    // a word on the console is another finding, whatever the batch
    expect(knownFatal({ ...freeze, lines: ['BUG: kernel NULL pointer dereference, address: 0000000000000000'] }, known)).toBeUndefined();
  });

  it('are ids of a regular expression, told apart from the other kinds', () => {
    expect(isFatalId('fatal:rvt_get_rwqe')).toBe(true);
    expect(isFatalId('fatal:')).toBe(false);
    expect(isFatalId('fatal:(unclosed')).toBe(false);
    expect(isFuzzExpectationId('fatal:soft lockup')).toBe(true);
    expect(isDivergenceId('fatal:soft lockup')).toBe(false);
  });
});
