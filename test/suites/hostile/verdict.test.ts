import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostileScenarioEnd } from '../../../guest/hostile-in-vm.js';
import { scenarioRecords } from '../../../guest/hostile-in-vm.js';
import { HOSTILE_SCENARIOS, type HostileScenario } from '../../../suites/hostile/scenarios.js';
import { consoleRecords, hostileCaseRun } from '../../../suites/hostile/verdict.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const scenario = (name: string) => HOSTILE_SCENARIOS.find((s) => s.name === name) as HostileScenario;
const end = (over: Partial<HostileScenarioEnd> & Pick<HostileScenarioEnd, 'scenario'>): HostileScenarioEnd => ({ status: 0, stdout: '', stderr: '', kmsg: [], durationMs: 1200, ...over });

describe("a hostile scenario's verdict", () => {
  it('passes on a clean kernel log and a program that ran to its end, whatever the verbs answered (an error completion is an answer)', () => {
    const s = scenario('rq-head-out-of-range');
    const run = hostileCaseRun(s, end({ scenario: s.name, stdout: 'hostile: rq-head-out-of-range: send=0 send_wc=IBV_WC_RNR_RETRY_EXC_ERR send_recv_wc=none destroy_qp=0\n', kmsg: scenarioRecords(fixture('clean.kmsg'), s.name) }), 60);
    expect(run.status).toBe('pass');
    expect(run.ran).toBe('ok');
    expect(run.splat).toBeUndefined();
    expect(run.checks).toEqual([expect.objectContaining({ clause: 'hostile_user.rwq.head-out-of-range', status: 'pass', actual: { send: '0', send_wc: 'IBV_WC_RNR_RETRY_EXC_ERR', send_recv_wc: 'none', destroy_qp: '0' } })]);
    expect(run.durationMs).toBe(1200);
  });

  it('fails on a KASAN report while it ran, with the report as evidence, even though the program printed its line', () => {
    const s = scenario('rq-num-sge-over');
    const run = hostileCaseRun(s, end({ scenario: s.name, stdout: 'hostile: rq-num-sge-over: post_recv=0 send=0 send_wc=IBV_WC_SUCCESS send_recv_wc=IBV_WC_SUCCESS destroy_qp=0\n', kmsg: scenarioRecords(fixture('kasan.kmsg'), s.name) }), 60);
    expect(run.status).toBe('fail');
    expect(run.splat).toEqual({ problem: 'the kernel logged a splat while the scenario ran', fatal: false });
    // the log lines alone, stamped, as the runner's watch records them (what findings reads)
    const log = run.checks[0]?.actual as string[];
    expect(log.every((l) => /^\[\s*\d+\.\d+\] /.test(l))).toBe(true);
    expect(log.some((l) => l.includes('BUG: KASAN: slab-out-of-bounds in rvt_lkey_ok'))).toBe(true);
    expect(log.some((l) => l.includes('rvt_get_rwqe'))).toBe(true);
    expect(run.checks[0]?.what).toContain('reproduce: hostile -d rvt_sim0 rq-num-sge-over');
    expect(run.reason).toContain('the program printed: hostile: rq-num-sge-over: post_recv=0');
    expect(run.stopsRun).toBeUndefined();
  });

  it('fails on an oops that killed the program (no line), as a crash that stops the run', () => {
    const s = scenario('rq-num-sge-huge');
    const run = hostileCaseRun(s, end({ scenario: s.name, status: 137, kmsg: scenarioRecords(fixture('oops.kmsg'), s.name) }), 60);
    expect(run).toMatchObject({ status: 'fail', ran: 'crash', splat: { fatal: true }, stopsRun: 'the kernel oopsed while the scenario ran' });
    expect(run.reason).toBe('the program printed no line (status 137)');
    expect(run.checks[0]?.actual).toEqual(expect.arrayContaining([expect.stringContaining('BUG: unable to handle page fault'), expect.stringContaining('RIP: 0010:rvt_get_rwqe')]));
  });

  it('fails when the VM went down during the scenario, with the console as evidence', () => {
    const s = scenario('srq-resize-num-sge-over');
    const lines = fixture('oops.console').split('\n').slice(1);
    const run = hostileCaseRun(s, end({ scenario: s.name, status: undefined, durationMs: 0, console: lines }), 60);
    expect(run).toMatchObject({ status: 'fail', ran: 'crash', splat: { problem: 'the kernel went down while the scenario ran', fatal: true } });
    expect(run.checks[0]?.actual).toEqual(expect.arrayContaining([expect.stringContaining('RIP: 0010:rvt_modify_srq')]));
  });

  it('counts a lockup the VM panicked on as the kernel going down', () => {
    const s = scenario('rq-rewrite-race');
    const lines = ['[ 30.000000] rvt-hostile: scenario rq-rewrite-race starts', '[ 36.100000] watchdog: BUG: soft lockup - CPU#0 stuck for 4s! [hostile:301]', '[ 36.200000] Kernel panic - not syncing: softlockup: hung tasks'];
    expect(hostileCaseRun(s, end({ scenario: s.name, status: undefined, console: lines }), 60)).toMatchObject({ status: 'fail', ran: 'crash', splat: { fatal: true } });
  });

  it('fails as a hang when the VM ended with nothing in the log, or when the program outlived its timeout', () => {
    const s = scenario('rq-rewrite-race');
    expect(hostileCaseRun(s, end({ scenario: s.name, status: undefined, console: ['[ 30.000000] rvt-hostile: scenario rq-rewrite-race starts'] }), 60)).toMatchObject({ status: 'fail', ran: 'timeout' });
    for (const status of [124, 137]) {
      const run = hostileCaseRun(s, end({ scenario: s.name, status }), 60);
      expect(run).toMatchObject({ status: 'fail', ran: 'timeout' });
      expect(run.checks[0]?.actual).toContain('within 60 s');
      expect(run.checks[0]?.what).toContain('reproduce: hostile -d rvt_sim0 rq-rewrite-race');
    }
  });

  it("is an error of the run, not a verdict, when nothing hostile was written (setup failed, the provider's layout differs) or the program died on its own", () => {
    const s = scenario('destroy-after-hostile');
    const layout = hostileCaseRun(s, end({ scenario: s.name, status: 3, stdout: 'hostile: destroy-after-hostile: layout-mismatch size=0 max_sge=0 rwq=(nil), the kernel granted max_wr=4 max_sge=1 (this program reads ...)\n' }), 60);
    expect(layout).toMatchObject({ status: 'error', ran: 'precondition-failed', checks: [] });
    expect(layout.reason).toContain('not laid out as the program reads them');
    const setup = hostileCaseRun(s, end({ scenario: s.name, status: 3, stdout: 'hostile: destroy-after-hostile: setup-failed stage=ibv_open_device errno=ENODEV\n' }), 60);
    expect(setup.reason).toContain('setup failed at ibv_open_device (ENODEV)');
    const segv = hostileCaseRun(s, end({ scenario: s.name, status: 139, stderr: 'Segmentation fault' }), 60);
    expect(segv).toMatchObject({ status: 'error', ran: 'error' });
    expect(segv.reason).toContain('a bug of the program, not of the kernel');
  });

  it('reads console lines as kernel log records', () => {
    expect(consoleRecords(['[   30.512400] Oops: 0002 [#1] PREEMPT SMP NOPTI', 'no stamp'])).toEqual([
      { seq: 0, usec: 30512400, text: 'Oops: 0002 [#1] PREEMPT SMP NOPTI' },
      { seq: 1, usec: 0, text: 'no stamp' },
    ]);
  });
});
