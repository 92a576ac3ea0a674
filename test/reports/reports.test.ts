import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mutantAdapter, mutants } from '../../adapters/mutants/index.js';
import { buildResults } from '../../reports/build.js';
import { renderJunit } from '../../reports/junit.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { RunResults } from '../../reports/results-schema.js';
import { writeReports } from '../../reports/write.js';
import { clauses } from '../../spec/clauses/index.js';
import { allCases } from '../../suites/index.js';
import type { CaseRun } from '../../suites/runner.js';
import { referenceModel, runAgainst } from '../helpers.js';

async function resultsFor(adapter = referenceModel(), profile: 'documented' | 'rdmavt' = 'rdmavt', extra: CaseRun[] = []) {
  const runs = [...(await runAgainst(adapter, allCases)), ...extra];
  return buildResults({
    info: await adapter.info(),
    profile,
    seed: 1,
    filter: null,
    clauses,
    runs,
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    interrupted: false,
    snapshot: null,
  });
}

const capacityPlusOne = () => {
  const m = mutants.find((x) => x.name === 'capacity-plus-one');
  if (!m) throw new Error('mutant missing');
  return mutantAdapter(m);
};

describe('results.json', () => {
  it('validates, and round-trips through JSON', async () => {
    const results = await resultsFor();
    expect(RunResults.parse(JSON.parse(JSON.stringify(results)))).toEqual(results);
    expect(results.gate.passed).toBe(true);
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.context.interrupt')).toMatchObject({ status: 'not-observable' });
  });

  it('renders u64 evidence as hex strings', async () => {
    const results = await resultsFor();
    const kase = results.cases.find((c) => c.id === 'post_srq_recv/wr_id-and-sges-delivered');
    expect(JSON.stringify(kase?.checks[1]?.expected)).toContain('"0xffffffffffffffff"');
  });

  it('fails the gate on a binding clause, and only reports a reference clause as a deviation under documented', async () => {
    const rdmavt = await resultsFor(capacityPlusOne(), 'rdmavt');
    expect(rdmavt.gate.passed).toBe(false);
    expect(rdmavt.gate.failures).toContain('post_srq_recv.full.rejected');
    const exactly = rdmavt.clauses.find((c) => c.id === 'post_srq_recv.capacity.exactly-max_wr');
    expect(exactly).toMatchObject({ status: 'pass', binding: true });
    const documented = await resultsFor(capacityPlusOne(), 'documented');
    expect(documented.clauses.find((c) => c.id === 'post_srq_recv.full.enomem')).toMatchObject({ binding: false });
  });
});

describe('report.md', () => {
  it('leads with the verdict and shows failing clauses with their evidence', async () => {
    const md = renderMarkdown(await resultsFor(capacityPlusOne()));
    expect(md.split('\n')[0]).toBe('# rvt-conform: FAIL');
    expect(md).toContain('### post_srq_recv.full.rejected (documented, binding): **FAIL**');
    expect(md).toMatch(/`post_srq_recv\/fill-to-capacity`: one WR more fails: expected "non-zero", actual 0/);
  });
});

describe('junit.xml', () => {
  it('has one suite per adapter, the adapter in test names, clause properties, failures as <failure>', async () => {
    const xml = renderJunit(await resultsFor(capacityPlusOne()));
    expect(xml).toMatch(/<testsuite name="rvt-conform mutant:capacity-plus-one \(model-mutant:capacity-plus-one\)"/);
    expect(xml).toContain('name="[mutant:capacity-plus-one] post_srq_recv/fill-to-capacity');
    expect(xml).toContain('<property name="clause" value="post_srq_recv.full.rejected"/>');
    expect(xml).toMatch(/<failure message="[^"]*post_srq_recv.full.rejected/);
    expect(xml).not.toContain('<error');
  });

  it('reports a harness error as <error>, never as <failure>', async () => {
    const kase = allCases[0];
    if (!kase) throw new Error('no cases');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const xml = renderJunit(await resultsFor(referenceModel(), 'rdmavt', [crashed]));
    expect(xml).toMatch(/<error message="the implementation crashed: SIGSEGV" type="crash"/);
  });
});

describe('writeReports', () => {
  it('writes every format and leaves no temporary file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-reports-'));
    await writeReports(dir, await resultsFor());
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.md', 'results.json']);
    expect(RunResults.safeParse(JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'))).success).toBe(true);
  });
});
