import { describe, expect, it } from 'vitest';
import { isKernelLog, logLinesOf, normaliseSplatLine, splatOf } from '../../../reports/findings/kernel-log.js';
import { fortifyLog, modelRun, oopsLog, splatted } from './fixture.js';

describe('findings: the kernel log of a case', () => {
  it("reads the lines from the watch's failed check, and nothing from a case without one", async () => {
    const results = await modelRun();
    const kase = results.cases[0];
    if (kase === undefined) throw new Error('no case');
    const lines = fortifyLog({ time: 23.8, pid: 175, line: 2041, offset: '0x7e6' });
    expect(logLinesOf(splatted(kase, lines))).toEqual(lines);
    expect(logLinesOf(kase)).toBeUndefined();
    expect(isKernelLog(['not a log line'])).toBe(false);
  });

  it('finds the FORTIFY warning: memory safety, in rvt_post_send at qp.c:2041, its message kept', () => {
    const splat = splatOf(fortifyLog({ time: 23.8, pid: 175, line: 2041, offset: '0x7e6' }));
    expect(splat).toMatchObject({ severity: 'memory-safety', function: 'rvt_post_send', module: 'rdmavt', file: 'drivers/infiniband/sw/rdmavt/qp.c', line: 2041 });
    expect(splat?.message).toMatch(/^memcpy: detected field-spanning write/);
  });

  it('gives one signature to one defect across boots and kernel versions (time, PID, offset and line differ)', () => {
    const a = splatOf(fortifyLog({ time: 23.8, pid: 175, line: 2041, offset: '0x7e6' }));
    const b = splatOf(fortifyLog({ time: 87.0, pid: 268, line: 2046, offset: '0x80a' }));
    expect(a?.signature).toBe(b?.signature);
    expect(a?.signature).toBe('WARNING: at drivers/infiniband/sw/rdmavt/qp.c rvt_post_send [rdmavt] in rvt_post_send');
  });

  it('tells two oopses apart by the function they are in', () => {
    const a = splatOf(oopsLog('rvt_post_send'));
    const b = splatOf(oopsLog('rxe_post_recv'));
    expect(a?.severity).toBe('oops');
    expect(a?.signature).not.toBe(b?.signature);
    expect(a?.first).toBe('BUG: kernel NULL pointer dereference, address: 0000000000000008');
  });

  it.each([
    [['[ 52.1] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [node:175]', '[ 52.2] RIP: 0010:rvt_post_srq_recv+0x20/0x100 [rdmavt]'], 'lockup'],
    [['[ 52.1] BUG: KASAN: slab-out-of-bounds in rvt_post_srq_recv+0x1e2/0x4a0 [rdmavt]'], 'memory-safety'],
    [['[ 52.1] UBSAN: array-index-out-of-bounds in drivers/infiniband/sw/rdmavt/srq.c:200:3'], 'memory-safety'],
    [['[ 52.1] WARNING: CPU: 0 PID: 1 at drivers/infiniband/core/verbs.c:100 ib_dealloc_pd_user+0x1/0x2 [ib_core]'], 'kernel-warning'],
  ])('ranks %j as %s', (lines, severity) => {
    expect(splatOf(lines)?.severity).toBe(severity);
  });

  it('drops what differs between boots from a lockup line', () => {
    expect(normaliseSplatLine('[ 52.1] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [node:175]')).toBe('watchdog: BUG: soft lockup - stuck!');
  });

  it('finds no splat in a clean log', () => {
    expect(splatOf(['[ 1.0] rdma_rxe: loaded', '[ 1.1] rvt_sim0: registered'])).toBeUndefined();
  });
});
