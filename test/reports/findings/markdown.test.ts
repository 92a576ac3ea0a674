import { beforeAll, describe, expect, it } from 'vitest';
import { collectFindings } from '../../../reports/findings/collect.js';
import { renderFindingsMarkdown } from '../../../reports/findings/markdown.js';
import { fortifyLog, loaded, modelRun, recordedOn, sampleRuns, splatted, withCase } from './fixture.js';

describe('findings.md', () => {
  let md: string;

  beforeAll(async () => {
    md = renderFindingsMarkdown({ tool: { name: 'rvt-conform', version: '9.9.9' }, ...collectFindings(loaded(await sampleRuns())) });
  }, 60_000);

  it('opens with the counts and a table of the findings, worst first', () => {
    expect(md).toContain('5 finding(s) (1 kernel oops, 1 memory safety, 2 crash (user space), 1 contract), 1 known, from 5 run(s)');
    const rows = md.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows.map((r) => r.split(' | ')[1])).toEqual(['kernel oops', 'memory safety', 'crash (user space)', 'crash (user space)', 'contract']);
    expect(rows[1]).toContain('| yes | 6.1.0-57-amd64 rvt_sim0/kernel, 6.1.0-57-amd64 rvt_sim0/libibverbs |');
  });

  it('gives each finding its clauses, where, seen and not seen, log, reproducer and draft report', () => {
    const fortify = md.slice(md.indexOf('## 2. memory safety'), md.indexOf('## 3.'));
    for (const heading of ['**Clauses**', '**Where in the source**', '**Seen**', '**Not seen**', '**Known defect**', '**Kernel log**', '**Reproducer**', '**Draft report**']) {
      expect(fortify).toContain(heading);
    }
    expect(fortify).toContain('`drivers/infiniband/sw/rdmavt/qp.c:2041 rvt_post_send()` — linux 6.1.0-57-amd64, from the kernel log');
    expect(fortify).toMatch(/<details><summary>2-[a-z0-9-]+\/program\/repro\.c<\/summary>\n\n```c\n/);
    expect(fortify).toContain('in the VM: `rvt-conform vm --run-repro 2-rvt-post-send-memcpy-detected-field-spanning-wri/module --device rvt_sim0`');
    expect(fortify).toContain('```text\nSubject: [BUG] RDMA/rdmavt:');
  });

  it('fences a kernel log longer than any backticks in it, so a log line cannot end the block', async () => {
    const lines = [...fortifyLog({ time: 1, pid: 1, line: 2041, offset: '0x1' }), '[1.000200] a line with ``` in it'];
    const run = withCase(recordedOn(await modelRun(), { kernel: '6.1', device: 'rvt_sim0', driver: 'rdmavt', layer: 'kernel' }), 'post_send/rdma-write', (k) => splatted(k, lines));
    const page = renderFindingsMarkdown({ tool: { name: 'rvt-conform', version: '0' }, ...collectFindings(loaded({ 'r/results.json': run })) });
    expect(page).toContain('````\n[1.000000] ------------[ cut here ]');
    expect(page).toContain('a line with ``` in it\n````\n');
  });
});
