import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { hostileExpectations, hostileResults } from '../../cli/commands/hostile.js';
import { scenarioRecords } from '../../guest/hostile-in-vm.js';
import { RunResults } from '../../reports/results-schema.js';
import { writeReports } from '../../reports/write.js';
import { collectFindings } from '../../reports/findings/collect.js';
import { HOSTILE_SCENARIOS } from '../../suites/hostile/scenarios.js';
import { hostileCaseRun } from '../../suites/hostile/verdict.js';
import type { VmRunInfo } from '../../vm/run-info.js';
import { runCli } from '../cli-in-process.js';
import { ROOT } from '../helpers.js';

const vm: VmRunInfo = { kernel: { release: '6.12.9-kasan', form: 'tree', origin: '/src/linux', configHash: 'abcdef012345' }, accel: 'kvm' };
const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../suites/hostile/fixtures', name), 'utf8');
const clean = (name: string) => ({ scenario: name, status: 0, stdout: `hostile: ${name}: send=0 send_wc=IBV_WC_SUCCESS\n`, stderr: '', kmsg: [], durationMs: 5 });

describe('rvt-conform hostile', () => {
  it('refuses to run outside the VM (exit 2): it may take the kernel down', async () => {
    const run = await runCli(['hostile']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('hostile runs in the VM only');
  });

  it('refuses an unknown scenario (exit 2), naming the ones there are', async () => {
    const run = await runCli(['hostile', '--vm', '--scenario', 'rq-num-sge-over,nope']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no scenario nope');
  });
});

describe("the hostile run's results", () => {
  let out: string | undefined;
  afterEach(async () => {
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  it('pass the gate when every scenario left a clean kernel log, judged by the hostile clauses alone, on the guest kernel', () => {
    const results = hostileResults(HOSTILE_SCENARIOS.map((s) => hostileCaseRun(s, clean(s.name), 60)), vm, false, new Date(), null);
    expect(() => RunResults.parse(results)).not.toThrow();
    expect(results.gate.passed).toBe(true);
    expect(results.clauses.map((c) => c.id).sort()).toEqual(HOSTILE_SCENARIOS.map((s) => s.clause).sort());
    expect(results.environment).toMatchObject({ kernel: '6.12.9-kasan', vm });
    expect(results.adapter).toMatchObject({ adapter: 'hostile', layer: 'libibverbs', device: { name: 'rvt_sim0', provider: 'ipathverbs' } });
    // a clean log is worth less without KASAN, and the report says so
    expect(results.adapter.implementation).toContain('without KASAN');
  });

  it('judge only the chosen scenarios (--scenario): the others are not unverified', () => {
    const [first] = HOSTILE_SCENARIOS;
    const results = hostileResults([hostileCaseRun(first, clean(first.name), 60)], vm, false, new Date(), first.name);
    expect(results.clauses.map((c) => c.id)).toEqual([first.clause]);
    expect(results.gate.passed).toBe(true);
  });

  it('fail the gate on a KASAN report, with the report in results.json and report.md', async () => {
    const runs = HOSTILE_SCENARIOS.map((s) =>
      hostileCaseRun(s, s.name === 'rq-num-sge-over' ? { ...clean(s.name), kmsg: scenarioRecords(fixture('kasan.kmsg'), s.name) } : clean(s.name), 60),
    );
    const results = hostileResults(runs, vm, true, new Date(), null);
    expect(results.gate.passed).toBe(false);
    expect(results.adapter.implementation).toContain('with KASAN');
    expect(results.gate.failures).toEqual(expect.arrayContaining(['hostile_user.rwqe.num_sge-over', 'hostile_user/rq-num-sge-over']));
    out = await mkdtemp(join(tmpdir(), 'hostile-report-'));
    await writeReports(out, results, ['json', 'md']);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('BUG: KASAN: slab-out-of-bounds in rvt_lkey_ok');
    expect(RunResults.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'))).cases.find((c) => c.id === 'hostile_user/rq-num-sge-over')?.splat).toMatchObject({ fatal: false });
  });

  it('are read by findings as any run: an oops ranked above a KASAN report, each with its kernel log', () => {
    const runs = HOSTILE_SCENARIOS.map((s) => {
      if (s.name === 'rq-num-sge-over') return hostileCaseRun(s, { ...clean(s.name), kmsg: scenarioRecords(fixture('kasan.kmsg'), s.name) }, 60);
      if (s.name === 'rq-num-sge-huge') return hostileCaseRun(s, { ...clean(s.name), status: 137, stdout: '', kmsg: scenarioRecords(fixture('oops.kmsg'), s.name) }, 60);
      return hostileCaseRun(s, clean(s.name), 60);
    });
    const { findings } = collectFindings([{ path: 'conformance-report/hostile/results.json', results: hostileResults(runs, vm, true, new Date(), null) }]);
    expect(findings.map((f) => f.severity)).toEqual(['oops', 'memory-safety']);
    expect(JSON.stringify(findings)).toContain('rvt_lkey_ok');
  });

  it('take an expectations file: a splat it announces for the scenario does not fail the gate; an id it does not know is exit 2 before any boot', async () => {
    out = await mkdtemp(join(tmpdir(), 'hostile-expect-'));
    const file = join(out, 'hostile.yaml');
    await writeFile(
      file,
      'expectations:\n  - id: hostile_user/rq-num-sge-over\n    status: fail\n    reason: init_sge walks past max_sge into r_sg_list (KASAN slab-out-of-bounds in rvt_lkey_ok)\n    link: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/drivers/infiniband/sw/rdmavt/qp.c?h=v6.1#n2281\n',
    );
    const runs = HOSTILE_SCENARIOS.map((s) => hostileCaseRun(s, s.name === 'rq-num-sge-over' ? { ...clean(s.name), kmsg: scenarioRecords(fixture('kasan.kmsg'), s.name) } : clean(s.name), 60));
    const results = hostileResults(runs, vm, true, new Date(), null, await hostileExpectations(file));
    expect(results.cases.find((c) => c.id === 'hostile_user/rq-num-sge-over')?.status).toBe('xfail');
    expect(results.gate.passed).toBe(true);
    expect(results.run.expectations).toBe(file);
    await writeFile(file, 'expectations:\n  - id: hostile_user/no-such-scenario\n    status: fail\n    reason: x\n    link: https://example.org/\n');
    const run = await runCli(['hostile', '--vm', '--expectations', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no-such-scenario');
  });
});

describe('expectations/hostile-rdmavt.yaml', () => {
  const OOPSES = ['rq-num-sge-over', 'rq-num-sge-huge', 'srq-resize-num-sge-over'];
  // Each of the three as CI's VM left it: the oops ended the boot, its console the evidence.
  const ended = (name: string) => ({ ...clean(name), status: undefined, stdout: '', console: fixture('oops.console').replaceAll('srq-resize-num-sge-over', name).split('\n') });
  const judged = async (oopsing: readonly string[]) => {
    const expectations = await hostileExpectations(join(ROOT, 'expectations/hostile-rdmavt.yaml'));
    const runs = HOSTILE_SCENARIOS.map((s) => hostileCaseRun(s, oopsing.includes(s.name) ? ended(s.name) : clean(s.name), 60));
    return hostileResults(runs, { ...vm, kernel: { ...vm.kernel, release: '6.1.0-57-amd64' } }, false, new Date(), null, expectations);
  };

  it('accepts the three oopses CI sees on rdmavt, each with its reason and source line, and the other four scenarios pass', async () => {
    const results = await judged(OOPSES);
    expect(results.gate.passed).toBe(true);
    expect(results.cases.filter((c) => c.status === 'xfail').map((c) => c.id).sort()).toEqual(OOPSES.map((n) => `hostile_user/${n}`).sort());
    for (const c of results.cases.filter((k) => k.status === 'xfail')) expect(c.expectation?.link).toMatch(/^https:\/\/git\.kernel\.org\/.*rdmavt\/(qp|srq)\.c\?h=v6\.1#n\d+$/);
  });

  it('fails the gate when another scenario oopses, or when one of the three stops oopsing (a fix: the entry must go)', async () => {
    expect((await judged([...OOPSES, 'rq-head-out-of-range'])).gate.passed).toBe(false);
    const fixed = await judged(OOPSES.slice(1));
    expect(fixed.gate.passed).toBe(false);
    expect(fixed.gate.unexpectedPasses.length).toBeGreaterThan(0);
  });
});
