import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kernelCoverageModule, startKernelCoverage } from '../../cli/kernel-coverage.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { coverage } from '../../reports/coverage.js';
import { clauses } from '../../spec/clauses/index.js';
import { loadPinnedSnapshot } from '../../spec/snapshots/pinned.js';
import { defineCase } from '../../suites/case.js';
import { allCases } from '../../suites/index.js';
import { runCases } from '../../suites/runner.js';
import { CAPTURED, fakeTracefs } from '../adapters/kernel/fake-tracefs.js';
import { guestArgs } from '../../guest/run-in-vm.js';
import { UserError } from '../../spec/errors.js';
import { runCli } from '../cli-in-process.js';

/** A /sys/module where `module` is loaded with the build-id note of Debian's 6.1.0-57 rdmavt.ko. */
function sysModuleWith(module: string): string {
  const sys = mkdtempSync(join(tmpdir(), 'sys-module-'));
  mkdirSync(join(sys, module, 'notes'), { recursive: true });
  writeFileSync(join(sys, module, 'notes', '.note.gnu.build-id'), readFileSync(new URL('../adapters/kernel/fixtures/rdmavt.note.gnu.build-id', import.meta.url)));
  return sys;
}

describe('--kernel-coverage', () => {
  it("traces each VM device's driver, or the module named", () => {
    expect(['rvt_sim0', 'rxe0', 'siw0', undefined].map((device) => kernelCoverageModule(true, 'kernel', device))).toEqual(['rdmavt', 'rdma_rxe', 'siw', 'rdma_rxe']);
    expect(kernelCoverageModule(true, 'ibverbs', 'rvt_sim0')).toBe('rdmavt');
    expect(kernelCoverageModule('mlx5_ib', 'ibverbs', 'mlx5_0')).toBe('mlx5_ib');
  });

  it.each([
    ['a device whose driver it does not know', true, 'ibverbs', 'mlx5_0', /does not know the module of mlx5_0/],
    ['an adapter whose verbs do not run in this kernel', true, 'model', undefined, /--adapter model does not run on this machine/],
    ['a filter that is not a module name', 'rdmavt *', 'kernel', 'rvt_sim0', /not a module name/],
  ] as const)('refuses %s', (_what, flag, adapter, device, message) => {
    expect(() => kernelCoverageModule(flag, adapter, device)).toThrow(UserError);
    expect(() => kernelCoverageModule(flag, adapter, device)).toThrow(message);
  });

  it('is refused on the model before anything runs (exit 2, one line)', async () => {
    const r = await runCli(['run', '--kernel-coverage', '--out', 'x-never-written']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--kernel-coverage traces a kernel driver/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('traces each case of a run and records rdmavt against its documented functions, then gives the tracer back', async () => {
    const fake = fakeTracefs();
    const traced = startKernelCoverage('rdmavt', { files: fake.files, sysModule: sysModuleWith('rdmavt') });
    const CLAUSE = 'post_srq_recv.return.zero-on-success';
    // the "driver" runs while the case does: the fake kernel's ring fills then
    const posting = defineCase({ id: 'test/posting', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { fake.record(CAPTURED, 0); ctx.check.equal(CLAUSE, 'x', 1, 1); } });
    const idle = defineCase({ id: 'test/idle', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { ctx.check.equal(CLAUSE, 'x', 1, 1); } });
    const adapter = traced.watching(modelAdapter());
    await runCases({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000, cases: [posting, idle] });
    const record = traced.record(coverage(loadPinnedSnapshot(), clauses, allCases));
    traced.close();
    expect(record).toMatchObject({ module: 'rdmavt', universe: 'kernel-doc', cases: 2, overruns: [{ case: 'test/posting', lost: 12 }] });
    expect(record.functions.find((f) => f.function === 'rvt_post_srq_recv')?.cases).toEqual(['test/posting']);
    expect(record.seeAlso?.functions).toHaveLength(43);
    expect(fake.read('current_tracer')).toBe('nop');
    // Debian 6.1.0-57's rdmavt: its committed table's kprobes were placed, then removed
    expect(record.inline).toMatchObject({ buildId: 'c4c8851de7270e7a16d46bb34da8b666aa0c6cca', table: 'linux-image-6.1.0-57-amd64-dbg 6.1.192-3', refused: [] });
    expect(record.functions.find((f) => f.function === 'get_rvt_head')).toMatchObject({ traceable: true, inlineSites: 4, cases: [] });
    expect(fake.read('kprobe_events')).toBe('');
  });

  it('places no kprobe on a build without a table, and says so for each inlined function', () => {
    const fake = fakeTracefs();
    const traced = startKernelCoverage('rdmavt', { files: fake.files, sysModule: sysModuleWith('rdmavt'), tables: [] });
    const record = traced.record(coverage(loadPinnedSnapshot(), clauses, allCases));
    traced.close();
    expect(fake.writes.filter((w) => w.startsWith('kprobe_events'))).toEqual([]);
    expect(record.inline).toEqual({ buildId: 'c4c8851de7270e7a16d46bb34da8b666aa0c6cca', reason: expect.stringMatching(/^no inline-site table for this build \(build-id c4c8851de7270e7a16d46bb34da8b666aa0c6cca;/), probes: 0, refused: [] });
    expect(record.functions.find((f) => f.function === 'get_rvt_head')?.reason).toMatch(/^not traceable: .*, and no inline-site table for this build/);
    const unknown = startKernelCoverage('rdmavt', { files: fakeTracefs().files, sysModule: mkdtempSync(join(tmpdir(), 'sys-module-')) });
    expect(unknown.record([]).inline?.reason).toMatch(/the kernel shows no build-id of rdmavt/);
    unknown.close();
  });

  it("gives the fuzzer the same tracer run by run, and records each function with the run that reached it first", () => {
    const fake = fakeTracefs();
    const traced = startKernelCoverage('rdmavt', { files: fake.files, sysModule: sysModuleWith('rdmavt') });
    traced.runs.begin();
    fake.record(CAPTURED, 0);
    const { functions } = traced.runs.end([]);
    // the run's end stops the ring
    expect(fake.read('tracing_on')).toBe('0');
    expect(functions.has('rvt_post_srq_recv')).toBe(true);
    const record = traced.record(coverage(loadPinnedSnapshot(), clauses, allCases), [
      { caseId: 'run 1', functions: ['rvt_post_srq_recv'], lost: 0 },
      { caseId: 'run 2', functions: [], lost: 3 },
    ]);
    traced.close();
    expect(record).toMatchObject({ cases: 2, overruns: [{ case: 'run 2', lost: 3 }] });
    expect(record.seeAlso?.functions).toHaveLength(43);
    expect(record.functions.find((f) => f.function === 'rvt_post_srq_recv')?.cases).toEqual(['run 1']);
    expect(record.functions.find((f) => f.function === 'rvt_create_srq')?.reason).toMatch(/^no fuzz run reached it/);
  });

  it('is refused by fuzz on the model before anything runs (exit 2, one line)', async () => {
    const r = await runCli(['fuzz', '--kernel-coverage', '--out', 'x-never-written']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--kernel-coverage traces a kernel driver/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reaches the guest run: the VM host passes it on', () => {
    expect(guestArgs(['--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--kernel-coverage', '--out', 'x'])).toEqual(['--adapter', 'kernel', '--device', 'rvt_sim0', '--kernel-coverage', '--out', 'x']);
  });
});
