import { describe, expect, it } from 'vitest';
import { docDriftOfRun, kernelOfRun } from '../../reports/labels.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { columnLabel, columnLabels } from '../../reports/matrix.js';
import { RunResults } from '../../reports/results-schema.js';
import { vmRunInfo, VM_RUN_ENV } from '../../vm/run-info.js';
import { casesNamed, resultsFor } from './fixture.js';

const KERNEL = {
  form: 'staged', origin: '/stage/6.12', release: '6.12.118+deb12-amd64', image: '/stage/6.12/boot/vmlinuz', modulesBase: '/stage/6.12',
  kbuild: { dir: '/stage/6.12/usr/src/h' }, config: '/stage/6.12/boot/config', configHash: 'fd71250a0822', fingerprint: 'x',
} as const;

describe('the kernel a run judged, in its results and reports', () => {
  it('records the VM kernel, accelerator and kernel-doc drift the host set, and the reports name them', async () => {
    const info = vmRunInfo(KERNEL, { accel: 'tcg', why: '/dev/kvm is absent' }, { pinned: '6.1.192', checked: '6.12.118', changes: 3, clauses: [] });
    process.env[VM_RUN_ENV] = JSON.stringify(info);
    let results: RunResults;
    try {
      results = await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') });
    } finally {
      delete process.env[VM_RUN_ENV];
    }
    expect(RunResults.parse(results).environment.vm).toEqual(info);
    expect(kernelOfRun(results)).toBe('6.12.118+deb12-amd64 (staged, config fd71250a0822; TCG: /dev/kvm is absent)');
    expect(docDriftOfRun(results)).toMatch(/documents the cited files differently from the snapshot that judged this run \(linux 6\.1\.192\): 3 change\(s\), no clause cites the changed text/);
    const md = renderMarkdown(results);
    expect(md).toContain('Kernel: 6.12.118+deb12-amd64 (staged');
    expect(md).toContain('Kernel-doc: the booted kernel (linux 6.12.118)');
  });

  it('ignores an environment record that does not parse, and names no kernel for the model', async () => {
    process.env[VM_RUN_ENV] = '{"kernel": 1}';
    try {
      const results = await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') });
      expect(results.environment.vm).toBeUndefined();
      expect(kernelOfRun(results)).toBeUndefined();
      expect(columnLabel(results)).toBe(`${results.adapter.adapter} (${results.adapter.device.name})`);
    } finally {
      delete process.env[VM_RUN_ENV];
    }
  });

  it('labels two runs of one device on two kernels apart', async () => {
    const base = await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') });
    const on = (release: string) => ({ ...base, adapter: { ...base.adapter, device: { ...base.adapter.device, kernel: release } } });
    expect(columnLabel(on('6.1.0-57-amd64'))).not.toBe(columnLabel(on('6.12.118+deb12-amd64')));
    expect(columnLabel(on('6.1.0-57-amd64'))).toContain('6.1.0-57-amd64');
  });

  it('labels runs of one device on one kernel apart by what differs: the tool version, else when each ran', async () => {
    const base = await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') });
    const run = (startedAt: string, version = base.tool.version) => ({ ...base, tool: { ...base.tool, version }, run: { ...base.run, startedAt } });
    const other = { ...base, adapter: { ...base.adapter, device: { ...base.adapter.device, name: 'other0' } } };
    const name = `${base.adapter.adapter} (${base.adapter.device.name}`;
    expect(columnLabels([run('2026-12-03T02:00:00.000Z'), run('2026-12-04T02:00:00.000Z'), other])).toEqual([
      `${name}, 2026-12-03 02:00 UTC)`,
      `${name}, 2026-12-04 02:00 UTC)`,
      // a run no other shares a label with keeps the short one
      columnLabel(other),
    ]);
    expect(columnLabels([run('2026-12-03T02:00:00.000Z', '0.1.0'), run('2026-12-04T02:00:00.000Z', '0.2.0')])).toEqual([
      `${name}, rvt-conform 0.1.0, 2026-12-03 02:00 UTC)`,
      `${name}, rvt-conform 0.2.0, 2026-12-04 02:00 UTC)`,
    ]);
  });
});
