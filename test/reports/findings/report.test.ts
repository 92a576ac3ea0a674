import { beforeAll, describe, expect, it } from 'vitest';
import { collectFindings } from '../../../reports/findings/collect.js';
import type { Finding } from '../../../reports/findings/schema.js';
import { loaded, sampleRuns } from './fixture.js';

describe('findings: the draft report to linux-rdma', () => {
  let findings: Finding[];
  const of = (severity: Finding['severity']) => {
    const found = findings.find((f) => f.severity === severity);
    if (found === undefined) throw new Error(`no ${severity} finding`);
    return found;
  };

  beforeAll(async () => {
    findings = collectFindings(loaded(await sampleRuns())).findings;
  }, 60_000);

  it('has a [BUG] subject naming the kernel module of a splat, and the library of a user-space crash', () => {
    expect(of('memory-safety').report.subject).toBe('[BUG] RDMA/rdmavt: rvt_post_send: memcpy: detected field-spanning write of single field "&wqe->wr"');
    expect(of('crash').report.subject).toMatch(/^\[BUG\] rdma-core\/ipathverbs: SIGSEGV in ibv_post_recv: /);
    expect(of('contract').report.subject).toMatch(/^\[BUG\] RDMA\/rdmavt: post_srq_recv: /);
  });

  it('names the module an oops is in, not the provider it came through', async () => {
    const { modelRun, oopsLog, recordedOn, splatted, withCase } = await import('./fixture.js');
    const through = recordedOn(await modelRun(), { kernel: '6.1.0-57-amd64', device: 'rxe0', provider: 'rxe', layer: 'libibverbs' });
    const run = withCase(through, 'post_srq_recv/single-wr', (k) => splatted(k, oopsLog('rxe_post_recv').map((l) => l.replace('[rdmavt]', '[rdma_rxe]'))));
    const [oops] = collectFindings(loaded({ 'rxe/results.json': run })).findings;
    expect(oops?.report.subject).toBe('[BUG] RDMA/rxe: rxe_post_recv: BUG: kernel NULL pointer dereference');
  });

  it('says where it was seen and where not, by kernel, device and layer', () => {
    const body = of('memory-safety').report.body;
    const seen = body.slice(body.indexOf('Affected versions'), body.indexOf('Not seen on'));
    expect(seen).toContain('linux 6.1.0-57-amd64 (installed, config abcdef012345):');
    expect(seen).toContain('rvt_sim0 (rdmavt) through the kernel verbs: post_send/rdma-write xfail');
    expect(seen).toContain('rvt_sim0 (ipathverbs) through libibverbs: post_send/rdma-write fail');
    expect(seen).not.toContain('6.12');
    expect(body.slice(body.indexOf('Not seen on'))).toContain('linux 6.12.118 (tree, config abcdef012345):');
  });

  it('has the steps with the attached reproducer, expected vs actual with the kernel log, and the known expectation', () => {
    const finding = of('memory-safety');
    const { body } = finding.report;
    expect(body).toContain('cc -Wall -o repro repro.c -libverbs && ./repro rvt_sim0');
    expect(body).toContain('make && insmod rvt_repro.ko device=rvt_sim0; dmesg | grep rvt-repro');
    expect(body).toMatch(/Expected:\n {2}- no BUG, WARNING, oops/);
    expect(body).toMatch(/Actual:\n[^]*the kernel log:\n {4}\[23\.800000\] -+\[ cut here \]/);
    expect(body).toContain('expectations/kernel-rdmavt.yaml:53: a known defect');
    expect(body).toMatch(/Reproducer:\n {2}rvt_repro\.c, Kbuild, Makefile: the kernel module [^\n]+\n {2}repro\.c: the libibverbs program/);
  });

  it('quotes the kernel-doc of a broken clause and gives the check that failed', () => {
    const { body } = of('contract').report;
    expect(body).toMatch(/What the documentation says:\n {2}- .+\(post_srq_recv\.bad_wr\.first-failing\)\n {6}drivers\/infiniband\/sw\/rdmavt\/qp\.c/);
    expect(body).toMatch(/Expected:\n {2}- post_srq_recv\.bad_wr\.first-failing, .+: 0\n/);
    expect(body).toMatch(/Actual:\n {2}- post_srq_recv\.bad_wr\.first-failing, .+: "untouched"\n/);
  });
});
