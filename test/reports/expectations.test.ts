import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { isFuzzExpectationId } from '../../suites/fuzz/known-divergences.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-in-process.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { implementations } from '../../adapters/model/implementations.js';
import { UserError } from '../../spec/errors.js';
import { renderJunit } from '../../reports/junit.js';
import { type LoadOptions, parseExpectations } from '../../reports/expectations/load.js';
import { conditionsHold, expectationsFor, type RunInfo } from '../../reports/expectations/match.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { RunResults } from '../../reports/results-schema.js';
import { clauses } from '../../spec/clauses/index.js';
import { hostileUserClauses } from '../../spec/clauses/hostile-user.js';
import { allCases } from '../../suites/index.js';
import { HOSTILE_SCENARIOS, scenarioCase } from '../../suites/hostile/scenarios.js';
import type { CaseRun } from '../../suites/runner.js';
import { MODEL_EXPECTATIONS, ROOT } from '../helpers.js';
import { casesNamed, mutant, resultsFor } from './fixture.js';

// The hostile tier's ids too: expectations/hostile-rdmavt.yaml is shipped with the others.
const hostileIds = [...hostileUserClauses.map((c) => c.id), ...HOSTILE_SCENARIOS.map((s) => scenarioCase(s).id)];
const options: LoadOptions = { knownIds: new Set([...clauses.map((c) => c.id), ...allCases.map((c) => c.id), ...hostileIds]), today: '2026-01-15' };
const ORDER = 'post_srq_recv.order.num_sge-before-full';
const LINK = 'https://example.org/bug/1';
const parse = (text: string) => parseExpectations(text, 'e.yaml', options);

/** The message of the UserError that parsing `text` throws. */
function problems(text: string): string {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).reason).toBe('usage');
    return (error as UserError).message;
  }
  throw new Error('expected the expectations file to be rejected');
}

const entry = (id: string, status: string, extra = '') => `  - id: ${id}\n    status: ${status}\n    reason: known\n    link: ${LINK}\n${extra}`;
const file = (...entries: string[]) => `expectations:\n${entries.join('')}`;

describe('expectations file', () => {
  it('parses entries and records where each is written', () => {
    const parsed = parse(file(entry(ORDER, 'fail', '    expires: 2026-12-31\n    when:\n      adapter: [rxe, siw]\n      profile: rdmavt\n'), entry('post_srq_recv/check-order', 'error')));
    expect(parsed).toEqual([
      { id: ORDER, status: 'fail', reason: 'known', link: LINK, expires: '2026-12-31', when: { adapter: ['rxe', 'siw'], profile: 'rdmavt' }, source: 'e.yaml:2' },
      { id: 'post_srq_recv/check-order', status: 'error', reason: 'known', link: LINK, source: 'e.yaml:10' },
    ]);
  });

  it.each([
    ['an unknown id', file(entry(ORDER, 'fail'), entry('post_srq_recv.no.such', 'fail')), /^e\.yaml:6: unknown id 'post_srq_recv\.no\.such'/],
    ['malformed YAML', 'expectations:\n  - id: [unclosed\n', /^e\.yaml:\d+: not valid YAML/],
    ['a status that is not one', file(entry(ORDER, 'flaky')), /^e\.yaml:3: expectations\.0\.status: /],
    ['a missing reason', `expectations:\n  - id: ${ORDER}\n    status: fail\n    link: ${LINK}\n`, /^e\.yaml:2: missing 'reason'/],
    ['a misspelt key', file(entry(ORDER, 'fail', '    expire: 2027-01-01\n')), /^e\.yaml:6: unknown key 'expire'/],
    ['a link that is no URL', file(entry(ORDER, 'fail').replace(LINK, 'see the wiki')), /^e\.yaml:5: expectations\.0\.link: /],
    ['an expired entry', file(entry(ORDER, 'fail', '    expires: 2026-01-14\n')), /^e\.yaml:6: expired on 2026-01-14: re-check/],
    ['an entry an earlier unconditional one hides', file(entry(ORDER, 'fail'), entry(ORDER, 'error')), /^e\.yaml:6: never applies: the entry for '.*' at line 2/],
    ['an empty file', '# only a comment\n', /^e\.yaml:1: the file is empty$/],
    ['an entry with neither id nor capability', `expectations:\n  - status: skip\n    reason: r\n    link: ${LINK}\n`, /^e\.yaml:2: .*give either 'id' .* or 'capability'/],
    ['an entry with both', file(entry(ORDER, 'skip', '    capability: ud\n')), /^e\.yaml:2: .*not both or neither/],
    ['a capability waiver that is not a skip', `expectations:\n  - capability: ud\n    status: fail\n    reason: r\n    link: ${LINK}\n`, /^e\.yaml:3: .*a capability waiver has status 'skip'/],
    ['a waiver of SRQs, the core of the contract', `expectations:\n  - capability: srq\n    status: skip\n    reason: r\n    link: ${LINK}\n`, /^e\.yaml:2: .*'srq' cannot be waived/],
    ['an unknown capability', `expectations:\n  - capability: rdma_cm\n    status: skip\n    reason: r\n    link: ${LINK}\n`, /^e\.yaml:2: expectations\.0\.capability: /],
  ])('rejects %s with file:line (exit 2)', (_, text, message) => {
    expect(problems(text)).toMatch(message);
  });

  it('reports every problem at once, in line order', () => {
    const message = problems(file(entry('nope.a', 'fail'), entry('nope.b', 'fail', '    expires: 2020-01-01\n')));
    expect(message.split('\n')).toEqual([
      "e.yaml:2: unknown id 'nope.a': no clause or case has it (see 'rvt-conform list')",
      "e.yaml:6: unknown id 'nope.b': no clause or case has it (see 'rvt-conform list')",
      'e.yaml:10: expired on 2020-01-01: re-check the deviation, then renew the date or remove the entry',
    ]);
  });

  it('the shipped rxe file expects the SRQ deviations the model of rxe shows under rdmavt', async () => {
    const text = await readFile(join(ROOT, 'expectations', 'rxe.yaml'), 'utf8');
    const rxe = implementations.rxe;
    if (rxe === undefined) throw new Error('model:rxe missing');
    // Named as the real adapter, so the file's conditions apply.
    const results = await resultsFor({ adapter: modelAdapter(rxe, 'ibverbs'), cases: casesNamed('post_srq_recv/fill-to-capacity', 'post_srq_recv/check-order'), expectations: parseExpectations(text, 'rxe.yaml', options) });
    for (const id of ['post_srq_recv.capacity.as-reported', ORDER]) expect(results.clauses.find((c) => c.id === id)?.status, id).toBe('xfail');
  });

  it("parses the reference's example of waiving an optional feature", async () => {
    const readme = await readFile(join(ROOT, 'docs/reference.md'), 'utf8');
    const example = /```yaml\n(\s*expectations:\n\s*- capability:[\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const [waiver] = parseExpectations((example ?? '').replace(/^ {2}/gm, ''), 'docs/reference.md', options);
    expect(waiver).toMatchObject({ capability: 'srq_resize', status: 'skip', when: { adapter: 'kernel', driver: 'siw' } });
  });

  it('every shipped expectations file is valid', async () => {
    const dir = join(ROOT, 'expectations');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    // the fuzzer's files name kernel warnings (suites/fuzz/known-warnings.ts), not clauses or cases
    const optionsFor = (name: string) => (name.startsWith('fuzz-') ? { ...options, knownIds: { has: isFuzzExpectationId } } : options);
    for (const name of files) expect(parseExpectations(await readFile(join(dir, name), 'utf8'), name, optionsFor(name)).length).toBeGreaterThan(0);
  });
});

describe('conditions on the run info', () => {
  const run: RunInfo = { adapter: 'rxe', device: 'rxe0', driver: 'rdma_rxe', profile: 'rdmavt', kernel: '6.12.118+deb12-amd64' };

  it('holds when every given key matches, a list matching any of its values', () => {
    expect(conditionsHold(undefined, run)).toBe(true);
    expect(conditionsHold({ adapter: ['siw', 'rxe'], device: 'rxe0', profile: 'rdmavt' }, run)).toBe(true);
    expect(conditionsHold({ adapter: 'rxe', profile: 'documented' }, run)).toBe(false);
    expect(conditionsHold({ driver: 'mlx5_core' }, run)).toBe(false);
    expect(conditionsHold({ driver: 'rdma_rxe' }, { ...run, driver: undefined })).toBe(false);
  });

  it('holds a kernel range against the release the device runs on, never for a run on no kernel', () => {
    expect(conditionsHold({ kernel: '>=6.12' }, run)).toBe(true);
    expect(conditionsHold({ kernel: '<6.12' }, run)).toBe(false);
    expect(conditionsHold({ kernel: '6.1' }, run)).toBe(false);
    expect(conditionsHold({ kernel: '6.1' }, { ...run, kernel: '6.1.0-57-amd64' })).toBe(true);
    expect(conditionsHold({ kernel: '>=6.1 <6.12' }, { ...run, kernel: '6.1.0-57-amd64' })).toBe(true);
    expect(conditionsHold({ kernel: '>=6.12' }, { ...run, kernel: undefined })).toBe(false);
  });

  it('refuses a kernel condition that is not a range, naming the entry', () => {
    expect(() => parse(file(entry(ORDER, 'fail', '    when: { kernel: "newest" }\n')))).toThrow(/not a kernel range/);
  });

  it('applies the first entry for an id whose conditions hold', () => {
    const entries = parse(file(entry(ORDER, 'error', '    when: { adapter: siw }\n'), entry(ORDER, 'fail', '    when: { device: rxe0 }\n'), entry(ORDER, 'skip')));
    expect(expectationsFor(entries, run).get(ORDER)?.status).toBe('fail');
    expect(expectationsFor(entries, { ...run, device: 'rxe1' }).get(ORDER)?.status).toBe('skip');
  });
});

describe('results with expectations', () => {
  // full-before-num_sge fails exactly this reference clause, in post_srq_recv/check-order
  const fullFirst = () => mutant('full-before-num_sge');
  const cases = casesNamed('post_srq_recv/check-order', 'post_srq_recv/single-wr');
  const withEntries = (text: string, adapter = fullFirst()) => resultsFor({ adapter, cases, expectations: parse(text) });

  it('turns an expected failure into xfail (clause and case) and passes the gate', async () => {
    const results = await withEntries(file(entry(ORDER, 'fail')));
    expect(results.clauses.find((c) => c.id === ORDER)).toMatchObject({ status: 'xfail', expectation: { status: 'fail', source: 'e.yaml:2', link: LINK } });
    expect(results.cases.find((c) => c.id === 'post_srq_recv/check-order')).toMatchObject({ status: 'xfail', expectation: { id: ORDER } });
    expect(results.gate).toMatchObject({ passed: true, failures: [], unexpectedPasses: [] });
    expect(results.gate.summary).toContain('1 expected to fail');
    expect(results.totals.xfail).toBe(1);
    expect(results.run.expectations).toBe('test.yaml');
    expect(renderMarkdown(results)).toContain(`## Expected failures`);
    expect(renderJunit(results)).toMatch(/<property name="expectation" value="fail \(e\.yaml:2\)"\/>\s*<\/properties>\s*<skipped message="expected fail: known \(https:[^"]*\)"\/>/);
  });

  it('fails the gate on an expectation that passed (xpass), naming it', async () => {
    const results = await withEntries(file(entry(ORDER, 'fail')), mutant('capacity-plus-one'));
    expect(results.clauses.find((c) => c.id === ORDER)?.status).toBe('xpass');
    expect(results.gate).toMatchObject({ passed: false, failures: [], unexpectedPasses: [ORDER] });
    expect(results.gate.summary).toContain('1 expectation(s) passed unexpectedly');
    expect(renderMarkdown(results)).toContain(`- \`${ORDER}\`: known ([link](${LINK}); \`e.yaml:2\`)`);
  });

  it('keeps a failure that differs from the expected status a failure', async () => {
    const results = await withEntries(file(entry(ORDER, 'error')));
    expect(results.clauses.find((c) => c.id === ORDER)).toMatchObject({ status: 'fail', expectation: { status: 'error' } });
    expect(results.gate.failures).toEqual([ORDER]);
  });

  it('takes a case expectation, and the clauses that case fails become xfail', async () => {
    const results = await withEntries(file(entry('post_srq_recv/check-order', 'fail')));
    expect(results.cases.find((c) => c.id === 'post_srq_recv/check-order')?.status).toBe('xfail');
    expect(results.clauses.find((c) => c.id === ORDER)).toMatchObject({ status: 'xfail', reason: 'expected in post_srq_recv/check-order: known' });
    expect(results.gate.passed).toBe(true);
  });

  it('expects a harness error by case id, and then its clauses do not error', async () => {
    const kase = casesNamed('post_srq_recv/num_sge-zero')[0];
    if (kase === undefined) throw new Error('case missing');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const results = await resultsFor({ cases, extra: [crashed], expectations: parse(file(entry(kase.id, 'error'))) });
    expect(results.cases.find((c) => c.id === kase.id)?.status).toBe('xfail');
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.num_sge.zero-accepted')?.status).toBe('xfail');
    expect(results.gate.passed).toBe(true);
  });

  it('ignores an entry whose conditions do not hold', async () => {
    const results = await withEntries(file(entry(ORDER, 'fail', '    when: { adapter: rxe }\n')));
    expect(results.clauses.find((c) => c.id === ORDER)).toMatchObject({ status: 'fail' });
    expect(results.clauses.find((c) => c.id === ORDER)?.expectation).toBeUndefined();
  });
});

describe('rvt-conform run --expectations', () => {
  const cli = (args: string[]) => runCli(['run', '--case', 'post_srq_recv/check-order', ...args], { CI: '1' });

  it('passes the gate on the expected failure, and records the file in results.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-expect-'));
    const waivers = (await readFile(MODEL_EXPECTATIONS, 'utf8')).split('expectations:\n')[1] ?? '';
    await writeFile(join(dir, 'e.yaml'), file(entry(ORDER, 'fail', '    when: { adapter: mutant:full-before-num_sge }\n'), waivers));
    // All the SRQ post cases, not check-order alone: a gate with nothing seen to hold is never PASS.
    const r = await cli(['--adapter', 'mutant:full-before-num_sge', '--out', join(dir, 'out'), '--expectations', join(dir, 'e.yaml'), '--case', 'post_srq_recv/*']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('1 expected to fail');
    const results = RunResults.parse(JSON.parse(await readFile(join(dir, 'out', 'results.json'), 'utf8')));
    expect(results.run.expectations).toBe(join(dir, 'e.yaml'));
    expect(results.clauses.find((c) => c.id === ORDER)?.status).toBe('xfail');
  });

  it('exits 1 on an expectation that passed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-expect-'));
    await writeFile(join(dir, 'e.yaml'), file(entry(ORDER, 'fail')));
    const r = await cli(['--out', join(dir, 'out'), '--expectations', join(dir, 'e.yaml')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`UNEXPECTED PASS  ${ORDER}: remove the entry at ${join(dir, 'e.yaml')}:2`);
  });

  it('names the first few of many unknown keys, not all of them', () => {
    const stray = Array.from({ length: 8 }, (_, i) => `k${i}: v\n`).join('');
    expect(problems(`expectations: []\n${stray}`)).toBe("e.yaml:2: unknown keys 'k0', 'k1', 'k2', 'k3', 'k4' and 3 more");
  });

  it('names a key given twice in an entry', () => {
    expect(problems(file(entry(ORDER, 'fail', '    status: skip\n')))).toBe("e.yaml:6: duplicate key 'status'");
  });

  it('refuses an alias bomb with a clear message instead of expanding it', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const name of 'bcdefgh') levels.push(`${name}: &${name} [${Array(9).fill(`*${String.fromCharCode(name.charCodeAt(0) - 1)}`).join(', ')}]`);
    expect(problems(`${levels.join('\n')}\nexpectations: *h\n`)).toMatch(/^e\.yaml:1: aliases expand beyond 100 nodes .*: write the entries out instead$/);
  });

  it('refuses a file over 1 MiB unread (exit 2), and one that is not a regular file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-expect-'));
    await writeFile(join(dir, 'e.yaml'), `${file(entry(ORDER, 'fail'))}${'# padding\n'.repeat(110_000)}`);
    const big = await cli(['--out', join(dir, 'out'), '--expectations', join(dir, 'e.yaml')]);
    expect(big.exitCode).toBe(2);
    expect(big.stderr).toMatch(/is \d+ bytes, more than 1048576 \(1 MiB\)/);
    const notFile = await cli(['--out', join(dir, 'out'), '--expectations', dir]);
    expect(notFile.exitCode).toBe(2);
    expect(notFile.stderr).toContain(`the expectations file ${dir} is not a regular file`);
  });

  it('exits 2 before running anything on a bad file, naming file:line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-expect-'));
    await writeFile(join(dir, 'e.yaml'), file(entry('post_srq_recv.nope', 'fail')));
    const r = await cli(['--out', join(dir, 'out'), '--expectations', join(dir, 'e.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`rvt-conform: ${join(dir, 'e.yaml')}:2: unknown id 'post_srq_recv.nope'`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain('[1/');
  });

  it('exits 2 on a bad file before booting a VM for --vm, and before a device adapter does anything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-expect-'));
    await writeFile(join(dir, 'e.yaml'), file(entry('post_srq_recv.nope', 'fail')));
    const r = await cli(['--adapter', 'kernel', '--vm', '--out', join(dir, 'out'), '--expectations', join(dir, 'e.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'e.yaml')}:2: unknown id 'post_srq_recv.nope'`);
    expect(r.stderr).not.toMatch(/booting|built rvtc/);
  });
});
