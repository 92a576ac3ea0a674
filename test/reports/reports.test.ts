import { isDeepStrictEqual } from 'node:util';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from 'ctrf';
import { renderCtrf } from '../../reports/ctrf.js';
import { renderHtml } from '../../reports/html/render.js';
import { renderJunit } from '../../reports/junit.js';
import { renderKtap } from '../../reports/ktap.js';
import { clauseCitations } from '../../spec/citations.js';
import { clauses } from '../../spec/clauses/index.js';
import { loadCitedSnapshot, snapshotId } from '../../spec/snapshots/pinned.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { RunResults } from '../../reports/results-schema.js';
import { writeReports } from '../../reports/write.js';
import { allCases } from '../../suites/index.js';
import type { CaseRun } from '../../suites/runner.js';
import { parse as parseJunit, type TestCase, type TestSuites } from 'junit2json';
import { implementations } from '../../adapters/model/implementations.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { runCases } from '../../suites/runner.js';
import { CLI, referenceModel } from '../helpers.js';
import { capacityMinusOne, casesNamed, resultsFor } from './fixture.js';
import { claimsSrqsItLacks, declaresNothing } from './lying-adapters.js';

describe('results.json', () => {
  it('validates, and round-trips through JSON', async () => {
    const results = await resultsFor();
    expect(RunResults.parse(JSON.parse(JSON.stringify(results)))).toEqual(results);
    expect(results.gate.passed).toBe(true);
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.context.interrupt')).toMatchObject({ status: 'not-observable' });
  });

  it('is the same document unvalidated (a run in the VM: the host validates the file it reads back) as validated', async () => {
    const input = { profile: 'documented' as const, more: { citations: new Map([['post_srq_recv.return.zero-on-success', [{ source: 0, text: 'Return: 0' }]]]) } };
    const [checked, unchecked] = [await resultsFor(input), await resultsFor({ ...input, validated: false })];
    // The same keys and values (the schema would strip a key it does not know); their order may differ.
    const same = isDeepStrictEqual(JSON.parse(JSON.stringify(unchecked)), JSON.parse(JSON.stringify(checked)));
    expect(same).toBe(true);
  });

  it('renders u64 evidence as hex strings', async () => {
    const results = await resultsFor();
    const kase = results.cases.find((c) => c.id === 'post_srq_recv/wr_id-and-sges-delivered');
    expect(JSON.stringify(kase?.checks[1]?.expected)).toContain('"0xffffffffffffffff"');
  });

  it('fails the gate on a binding clause, and only reports a reference clause as a deviation under documented', async () => {
    const rdmavt = await resultsFor({ adapter: capacityMinusOne(), profile: 'rdmavt' });
    expect(rdmavt.gate.passed).toBe(false);
    expect(rdmavt.gate.failures).toContain('post_srq_recv.capacity.at-least-max_wr');
    const exactly = rdmavt.clauses.find((c) => c.id === 'post_srq_recv.capacity.as-reported');
    expect(exactly).toMatchObject({ status: 'fail', binding: true });
    expect(rdmavt.gate.failures).toContain('post_srq_recv.capacity.as-reported');
    const documented = await resultsFor({ adapter: capacityMinusOne(), profile: 'documented' });
    expect(documented.clauses.find((c) => c.id === 'post_srq_recv.capacity.as-reported')).toMatchObject({ binding: false });
    expect(documented.gate.failures).not.toContain('post_srq_recv.capacity.as-reported');
    expect(documented.gate.failures).toContain('post_srq_recv.capacity.at-least-max_wr');
  });
});

describe('report.md', () => {
  it('leads with the verdict and shows failing clauses with their evidence', async () => {
    const md = renderMarkdown(await resultsFor({ adapter: capacityMinusOne() }));
    expect(md.split('\n')[0]).toBe('# rvt-conform: FAIL');
    expect(md).toContain('### post_srq_recv.capacity.at-least-max_wr (documented, binding): **FAIL**');
    expect(md).toContain('`post_srq_recv/fill-to-capacity`: posting 16 WRs (the granted capacity): expected 0, actual -12');
  });
});

describe('report.md, junit.xml and results.ktap: where a failing clause comes from and how to replay it', () => {
  const withCitations = () => {
    const cited = loadCitedSnapshot();
    return resultsFor({
      adapter: capacityMinusOne(),
      profile: 'rdmavt',
      // without the model's waivers post_send.state.bad_wr, which cites kernel-doc, fails too
      expectations: [],
      more: { snapshot: snapshotId(cited), citations: new Map(clauses.map((clause) => [clause.id, clauseCitations(cited, clause)])) },
    });
  };

  it('links the kernel-doc line of the kernel the spec was traced to, and gives the repro command and the call trace', async () => {
    const results = await withCitations();
    const clause = results.clauses.find((c) => c.binding && c.status === 'fail' && c.sources[0]?.kind === 'kernel-doc');
    const source = clause?.sources[0];
    const line = clause?.citations?.find((c) => c.source === 0)?.line;
    if (clause === undefined || source?.kind !== 'kernel-doc' || line === undefined) throw new Error('no failing clause cites kernel-doc');
    const kase = results.cases.find((c) => c.checks.some((k) => k.clause === clause.id && k.status === 'fail'));
    if (kase === undefined) throw new Error('no case broke it');
    const version = loadCitedSnapshot().kernel.version;
    const link = `https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/tree/${source.file}?h=v${version}#n${line}`;
    const repro = `rvt-conform repro ${kase.id} --from results.json`;
    const md = renderMarkdown(results);
    const section = md.slice(md.indexOf(`### ${clause.id} `), md.indexOf('\n### ', md.indexOf(`### ${clause.id} `) + 1));
    expect(section).toContain(`[${source.file}:${line} (kernel-doc ${source.function}() ${source.section}, linux ${version})](${link})`);
    expect(section).toContain(`replay it (in this report's folder): \`${repro}\``);
    expect(section).toMatch(new RegExp(`<details><summary>Call trace of <code>${kase.id}</code> \\(\\d+ calls\\)</summary>\n\n\`\`\`text\n1 `));
    const junit = (await parseJunit(renderJunit(results))) as TestSuites;
    const body = junit.testsuite?.[0]?.testcase?.find((c) => c.name === kase.id)?.failure?.[0]?.inner ?? '';
    expect(body).toContain(`${clause.id}: source: ${source.file}:${line} (kernel-doc ${source.function}() ${source.section}, linux ${version}) ${link}`);
    expect(body).toContain(`${clause.id}: repro: ${repro} (in the report folder)`);
    expect(renderKtap(results)).toContain(`  # source: ${source.file}:${line} (kernel-doc ${source.function}() ${source.section}, linux ${version}) ${link}`);
  });

  it("gives every expected failure its reason (a clause expected through its cases said nothing)", async () => {
    const md = renderMarkdown(await resultsFor());
    const section = md.slice(md.indexOf('## Expected failures'), md.indexOf('\n## ', md.indexOf('## Expected failures') + 1));
    const rows = section.split('\n').filter((l) => l.startsWith('- '));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^- `[^`]+`: \S/);
    expect(section).toMatch(/^- `post_send\.empty-list\.answered`: expected in post_send\/empty-list: rvt_post_send reads wr->next/m);
  });
});

describe('report.md and report.html: the optional kernel-doc sections', () => {
  const cited = 'Return: 0 on success, otherwise an errno.';
  const withSnapshot = () =>
    resultsFor({
      cases: [],
      more: {
        coverage: [{ function: 'rvt_post_srq_recv', file: 'drivers/infiniband/sw/rdmavt/qp.c', status: 'covered', clauses: ['post_srq_recv.return.zero-on-success'], cases: ['post_srq_recv/single-wr'] }],
        citations: new Map([['post_srq_recv.return.zero-on-success', [{ source: 0, text: cited }]]]),
      },
    });

  it('are absent without the snapshot', async () => {
    const md = renderMarkdown(await resultsFor({ cases: [] }));
    expect(md).not.toContain('## Coverage of documented functions');
    expect(md).not.toContain('## Cited kernel-doc text');
  });

  it('show coverage and cited text when results.json carries them', async () => {
    const results = await withSnapshot();
    const md = renderMarkdown(results);
    expect(md).toContain('## Coverage of documented functions');
    expect(md).toContain('| `rvt_post_srq_recv()` | drivers/infiniband/sw/rdmavt/qp.c | covered | 1 | 1 |  |');
    expect(md).toContain(`## Cited kernel-doc text\n\n### post_srq_recv.return.zero-on-success\n\nkernel-doc rvt_post_srq_recv() Return:\n\n> ${cited}`);
    const html = renderHtml([results]);
    expect(html).toContain('<h2>Coverage of documented functions</h2>');
    expect(html).toContain(`<blockquote>${cited}</blockquote>`);
  });
});

describe('ctrf.json', () => {
  it('is a valid CTRF report: a test per case, clause ids in extra, a harness error as other', async () => {
    const kase = allCases[0];
    if (!kase) throw new Error('no cases');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const results = await resultsFor({ adapter: capacityMinusOne(), extra: [crashed] });
    const report = JSON.parse(renderCtrf(results));
    expect(validate(report).errors ?? []).toEqual([]);
    expect(report.results.tests).toHaveLength(results.cases.length + 1);
    const fill = report.results.tests.find((t: { testId: string }) => t.testId === 'post_srq_recv/fill-to-capacity');
    expect(fill).toMatchObject({ status: 'failed', rawStatus: 'fail', name: 'post_srq_recv/fill-to-capacity', extra: { title: expect.stringMatching(/^The queue takes the max_wr granted/) } });
    expect(fill.trace).toContain('post_srq_recv.capacity.at-least-max_wr: posting 16 WRs (the granted capacity): expected');
    expect(fill.extra.clauses).toContain('post_srq_recv.capacity.at-least-max_wr');
    expect(fill.message).toContain('post_srq_recv.capacity.at-least-max_wr: posting 16 WRs (the granted capacity)');
    expect(report.results.tests.at(-2)).toMatchObject({ status: 'other', rawStatus: 'error', message: 'the implementation crashed: SIGSEGV' });
    expect(report.results.tests.at(-1)).toMatchObject({ testId: 'gate', status: 'failed', message: expect.stringContaining('failed: post_srq_recv.capacity.as-reported') });
    expect(report.results.summary).toMatchObject({ tests: results.cases.length + 1, start: 0, stop: 1000 });
    expect(report.extra.gate.passed).toBe(false);
  });

  it('fails with the gate when no case failed (nothing observed to hold), and passes with it', async () => {
    const unseen = JSON.parse(renderCtrf(await resultsFor({ cases: allCases.filter((c) => c.id === 'post_srq_recv/interrupt-context') })));
    expect(unseen.results.tests.filter((t: { status: string }) => t.status === 'failed').map((t: { testId: string }) => t.testId)).toEqual(['gate']);
    expect(unseen.results.summary.failed).toBe(1);
    const good = JSON.parse(renderCtrf(await resultsFor()));
    expect(good.results.tests.at(-1)).toMatchObject({ testId: 'gate', status: 'passed' });
    expect(good.results.summary.failed).toBe(0);
  });

  it('marks not-observable, precondition-failed and an interrupted run\'s unrun cases as skipped, each with its own raw status', async () => {
    const results = await resultsFor({ cases: casesNamed('post_srq_recv/interrupt-context', 'post_srq_recv/single-wr') });
    const tests = JSON.parse(renderCtrf(results)).results.tests as { testId: string; status: string; rawStatus: string; message?: string }[];
    expect(tests.find((t) => t.testId === 'post_srq_recv/interrupt-context')).toMatchObject({ status: 'skipped', rawStatus: 'not-observable', message: expect.stringMatching(/^not observable on this adapter: /) });
    const refused = await resultsFor({ adapter: claimsSrqsItLacks(), cases: casesNamed('post_srq_recv/single-wr') });
    expect(JSON.parse(renderCtrf(refused)).results.tests[0]).toMatchObject({ status: 'skipped', rawStatus: 'precondition-failed', message: expect.stringContaining('createSrq(max_wr 16) failed: returned -95 (EOPNOTSUPP)') });
  });
});

describe('junit.xml', () => {
  const parsed = async (results: RunResults) => {
    const root = (await parseJunit(renderJunit(results))) as TestSuites;
    const suite = root.testsuite?.[0];
    if (suite === undefined) throw new Error('no testsuite');
    return { root, suite, cases: suite.testcase ?? [] };
  };
  // junit2json flattens a testcase's <properties> into a list of {name, value}.
  const property = (c: TestCase, name: string) => (c as { properties?: { name: string; value: string }[] }).properties?.filter((p) => p.name === name).map((p) => p.value);

  it('names each test by its case id, with title, status and clauses as properties, and the evidence as the failure body', async () => {
    const { suite, cases } = await parsed(await resultsFor({ adapter: capacityMinusOne() }));
    expect(suite.name).toBe('rvt-conform mutant:capacity-minus-one (model-mutant:capacity-minus-one)');
    const fill = cases.find((c) => c.name === 'post_srq_recv/fill-to-capacity');
    if (fill === undefined) throw new Error('no fill-to-capacity testcase');
    expect(fill.classname).toBe('rvt-conform.mutant:capacity-minus-one.post_srq_recv');
    expect(property(fill, 'title')).toEqual(['The queue takes the max_wr granted, then refuses a WR with bad_wr at it (rdmavt: right after max_wr, ENOMEM)']);
    expect(property(fill, 'clause')).toContain('post_srq_recv.capacity.at-least-max_wr');
    expect(fill.failure?.[0]?.type).toBe('ClauseFailed');
    expect(fill.failure?.[0]?.inner).toMatch(/post_srq_recv\.capacity\.at-least-max_wr: posting 16 WRs \(the granted capacity\): expected .*, actual /);
    expect(cases.some((c) => c.error !== undefined)).toBe(false);
  });

  it('a JUnit parser reads the same counts and evidence from junit.xml as report.md shows', async () => {
    const results = await resultsFor({ adapter: capacityMinusOne(), cases: casesNamed('post_srq_recv/fill-to-capacity', 'post_srq_recv/single-wr', 'post_srq_recv/interrupt-context'), expectations: [] });
    const { suite, cases } = await parsed(results);
    const md = renderMarkdown(results);
    const ci = /As CI sees it \(junit\.xml, ctrf\.json\): (\d+) tests, (\d+) passed, (\d+) failed, (\d+) errors, (\d+) skipped/.exec(md);
    expect(ci?.slice(1).map(Number)).toEqual([suite.tests, cases.filter((c) => !c.failure && !c.error && !c.skipped).length, suite.failures, suite.errors, suite.skipped]);
    expect([suite.tests, suite.failures, suite.errors, suite.skipped]).toEqual([4, 2, 0, 1]);
    for (const c of cases.filter((k) => k.failure && k.name !== 'gate')) {
      for (const line of c.failure?.[0]?.inner?.split('\n') ?? []) {
        // after the evidence, each broken clause's source and the repro command, which report.md shows as a link and as code
        const where = /^[\w.-]+: (?:source: (.*?)(?: https:\S+)?|repro: (.*) \(in the report folder\))$/.exec(line);
        expect(md).toContain(where === null ? line.slice(line.indexOf(': ') + 2) : (where[1] ?? where[2]));
      }
    }
    const gate = cases.at(-1);
    expect(gate).toMatchObject({ name: 'gate', failure: [{ type: 'GateFailed', message: results.gate.summary }] });
    expect(md).toContain(results.gate.summary);
  });

  it('fails the gate testcase whenever the gate fails, even with no failing case, with the reasons as its body', async () => {
    const unseen = await parsed(await resultsFor({ cases: casesNamed('post_srq_recv/interrupt-context') }));
    expect(unseen.suite.failures).toBe(1);
    expect(unseen.cases.at(-1)?.failure?.[0]?.inner).toMatch(/^FAIL: no binding clause was observed to hold/);
    const good = await parsed(await resultsFor());
    expect(good.suite.failures).toBe(0);
    expect(good.cases.at(-1)).toMatchObject({ name: 'gate' });
    expect(good.cases.at(-1)?.failure).toBeUndefined();
  });

  it('says why each skip is one: capability missing, precondition failed, not observable', async () => {
    const [single] = (await parsed(await resultsFor({ adapter: claimsSrqsItLacks(), cases: casesNamed('post_srq_recv/single-wr') }))).cases;
    const [interrupt] = (await parsed(await resultsFor({ cases: casesNamed('post_srq_recv/interrupt-context') }))).cases;
    expect(single?.skipped?.[0]?.message).toBe('precondition failed: createSrq(max_wr 16) failed: returned -95 (EOPNOTSUPP)');
    expect(single && property(single, 'status')).toEqual(['precondition-failed']);
    expect(interrupt?.skipped?.[0]?.message).toMatch(/^not observable on this adapter: whether the driver's post may run in interrupt context/);
    expect(interrupt && property(interrupt, 'status')).toEqual(['not-observable']);
    const bare = await parsed(await resultsFor({ adapter: declaresNothing(), cases: casesNamed('post_srq_recv/single-wr') }));
    expect(bare.cases[0]?.skipped?.[0]?.message).toBe('the adapter does not provide: srq');
  });

  it('shows a case that failed only clauses that do not bind this run as a skip that says so, so the job is green with the gate', async () => {
    const rxe = implementations.rxe;
    if (rxe === undefined) throw new Error('model:rxe missing');
    const results = await resultsFor({ adapter: modelAdapter(rxe, 'model:rxe'), profile: 'documented', cases: casesNamed('post_srq_recv/check-order', 'post_srq_recv/single-wr') });
    expect(results.gate.passed).toBe(true);
    expect(results.cases.find((c) => c.id === 'post_srq_recv/check-order')?.status).toBe('fail');
    const { suite, cases } = await parsed(results);
    expect(suite.failures).toBe(0);
    const order = cases.find((c) => c.name === 'post_srq_recv/check-order');
    expect(order?.skipped?.[0]?.message).toMatch(/^deviates only from clauses that do not bind this run: post_srq_recv\.order\.num_sge-before-full: /);
    expect(order && property(order, 'status')).toEqual(['deviation']);
  });

  it('lists the cases an interrupted run did not reach, skipped, and fails', async () => {
    const controller = new AbortController();
    const adapter = referenceModel();
    const info = await adapter.info();
    const { runs, interrupted } = await runCases({
      adapter, info, profile: 'rdmavt', timeoutMs: 1000, signal: controller.signal, cases: allCases,
      onEvent: (e) => { if (e.type === 'case-end' && e.index === 1) controller.abort(); },
    });
    expect(interrupted).toBe(true);
    const results = await resultsFor({ more: { runs, interrupted } });
    const { suite, cases } = await parsed(results);
    expect(cases).toHaveLength(allCases.length + 1);
    expect(cases[5]?.skipped?.[0]?.message).toBe('not run: the run was interrupted');
    expect(suite.failures).toBe(1);
    expect(cases.at(-1)?.failure?.[0]?.message).toContain('the run was interrupted');
  });

  it('reports a harness error as <error>, never as <failure>', async () => {
    const kase = allCases[0];
    if (!kase) throw new Error('no cases');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const { cases } = await parsed(await resultsFor({ extra: [crashed] }));
    expect(cases.at(-2)?.error?.[0]).toMatchObject({ message: 'the implementation crashed: SIGSEGV', type: 'crash' });
    expect(cases.at(-2)?.failure).toBeUndefined();
  });
});

describe('writeReports', () => {
  it('replaces a report set whole: killed mid-write it leaves the old set, every file of it, and nothing beside', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'rvt-reports-'));
    const out = join(parent, 'conformance-report');
    // The subject is the write, not the suite: one verb's cases make a whole report set.
    const cli = (args: string[], env = {}) => execa(process.execPath, [...args, CLI, 'run', '--out', out, '--quiet', '--case', 'post_srq_recv/*'], { reject: false, env: { CI: '1', ...env } });
    // the model passes with its own waivers (expectations/model.yaml, applied by default): 0 is a complete run
    expect((await cli([])).exitCode).toBe(0);
    await writeFile(join(out, 'fuzz.json'), '{"another command": true}\n');
    const before = await snapshotOf(out);
    // SIGKILL once the new results.json and report.md are written, before junit.xml: the moment that left a mix
    const hook = join(parent, 'kill-mid-write.mjs');
    await writeFile(
      hook,
      `import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
const writeFile = fsp.writeFile;
fsp.writeFile = async (path, ...rest) => {
  if (String(path).includes('junit.xml')) process.kill(process.pid, 'SIGKILL');
  return writeFile(path, ...rest);
};
syncBuiltinESMExports();
`,
    );
    const killed = await cli(['--import', hook], {});
    expect(killed.signal).toBe('SIGKILL');
    expect(await snapshotOf(out)).toEqual(before);
    expect((await readdir(parent)).filter((name) => name !== 'kill-mid-write.mjs').length).toBeGreaterThan(1);

    // the next write clears what the killed one left, keeps the other command's file, and writes a new set
    expect((await execa(process.execPath, [CLI, 'run', '--out', out, '--quiet', '--case', 'post_srq_recv/single-wr'], { reject: false, env: { CI: '1' } })).exitCode).toBe(0);
    expect((await readdir(parent)).sort()).toEqual(['conformance-report', 'kill-mid-write.mjs']);
    const after = await snapshotOf(out);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after['fuzz.json']).toBe(before['fuzz.json']);
    expect(JSON.parse(after['results.json'] ?? '{}').run.filter).toBe('post_srq_recv/single-wr');
  }, 60_000);

  it('writes every format and leaves no temporary file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-reports-'));
    await writeReports(dir, await resultsFor());
    expect((await readdir(dir)).sort()).toEqual(['ctrf.json', 'junit.xml', 'report.html', 'report.md', 'results.json', 'results.ktap']);
    expect(RunResults.safeParse(JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'))).success).toBe(true);
  });
});

/** Every file of a directory with its content. */
async function snapshotOf(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)));
}
