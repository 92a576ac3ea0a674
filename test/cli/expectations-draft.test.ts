import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../cli-in-process.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });
const SRQ_CASES = 'post_srq_recv/*';

/** A run of the SRQ cases on a mutant that grants one WR less than it reports: three clauses fail, one is not observable. */
async function mutantRun(dir: string, adapter = 'mutant:capacity-minus-one', ...more: string[]): Promise<string> {
  const out = join(dir, adapter.replace(/\W/g, '-'));
  const r = await cli(['run', '--adapter', adapter, '--case', SRQ_CASES, '--out', out, '--quiet', ...more]);
  expect(r.exitCode, r.stderr).toBe(1);
  return join(out, 'results.json');
}

interface Entry {
  id?: string;
  status: string;
  reason: string;
  link: string;
}
const entriesOf = async (file: string) => (parse(await readFile(file, 'utf8')) as { expectations: Entry[] }).expectations;

describe('rvt-conform expectations draft', () => {
  it('drafts an entry per open binding clause, with evidence and link, which does not load until each reason is written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-draft-'));
    const results = await mutantRun(dir);
    const file = join(dir, 'drafted.yaml');
    const drafted = await cli(['expectations', 'draft', '--from', results, '-o', file]);
    expect(drafted.exitCode, drafted.stderr).toBe(0);
    expect(drafted.stderr).toContain('4 entries drafted');
    const text = await readFile(file, 'utf8');
    const entries = await entriesOf(file);
    expect(entries.map((e) => [e.id, e.status])).toEqual([
      ['post_srq_recv.capacity.as-reported', 'fail'],
      ['post_srq_recv.capacity.at-least-max_wr', 'fail'],
      ['post_srq_recv.consume.fifo-unchanged', 'fail'],
      ['post_srq_recv.context.interrupt', 'not-observable'],
    ]);
    expect(entries.every((e) => e.reason === 'TODO')).toBe(true);
    // the evidence above the entry, the link to the kernel-doc line the run located
    expect(text).toMatch(/# post_srq_recv\/fill-to-capacity: posting 16 WRs \(the granted capacity\): expected 0, actual -12\n {2}- id: post_srq_recv.capacity.at-least-max_wr/);
    expect(entries[3]?.link).toMatch(/^https:\/\/git\.kernel\.org\/.*\/drivers\/infiniband\/sw\/rdmavt\/qp\.c\?h=v6\.1\.\d+#n\d+$/);

    const refused = await cli(['run', '--adapter', 'mutant:capacity-minus-one', '--case', SRQ_CASES, '--out', join(dir, 'refused'), '--quiet', '--expectations', file]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`${file}:\\d+: expectations\\.0\\.reason: write why the implementation ends so: 'TODO' is the placeholder`));

    await writeFile(file, text.replace(/reason: TODO/g, 'reason: the mutant grants one WR less than it reports').replace(/link: TODO/g, 'link: https://example.org/mutant'));
    const waived = await cli(['run', '--adapter', 'mutant:capacity-minus-one', '--case', SRQ_CASES, '--out', join(dir, 'waived'), '--quiet', '--expectations', file]);
    expect(waived.exitCode, waived.stderr).toBe(0);
  });

  it('--update keeps the entries and comments, adds the new ones and marks those whose clause now passes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-draft-'));
    const file = join(dir, 'known.yaml');
    await writeFile(
      file,
      [
        '# written by hand',
        'expectations:',
        '  # a person wrote this one',
        '  - id: post_srq_recv.context.interrupt',
        '    status: not-observable',
        '    reason: the mutant runs in Node',
        '    link: https://example.org/interrupt',
        '',
      ].join('\n'),
    );
    const failing = await mutantRun(dir, 'mutant:capacity-minus-one', '--expectations', file);
    const updated = await cli(['expectations', 'draft', '--from', failing, '--update', file]);
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.stderr).toContain(`3 entries drafted into ${file}`);
    let text = await readFile(file, 'utf8');
    expect(text).toMatch(/^# written by hand\nexpectations:\n {2}# a person wrote this one\n {2}- id: post_srq_recv.context.interrupt\n/);
    expect((await entriesOf(file)).map((e) => e.id)).toEqual([
      'post_srq_recv.context.interrupt',
      'post_srq_recv.capacity.as-reported',
      'post_srq_recv.capacity.at-least-max_wr',
      'post_srq_recv.consume.fifo-unchanged',
    ]);

    // the model, which keeps its capacity, passes the three: their entries no longer apply
    const fixed = join(dir, 'fixed');
    expect((await cli(['run', '--case', SRQ_CASES, '--out', fixed, '--quiet'])).exitCode).toBe(0);
    const marked = await cli(['expectations', 'draft', '--from', join(fixed, 'results.json'), '--update', file]);
    expect(marked.exitCode, marked.stderr).toBe(0);
    expect(marked.stderr).toContain('0 entries drafted');
    text = await readFile(file, 'utf8');
    expect(text).toMatch(/- id: post_srq_recv.capacity.as-reported # rvt-conform: no longer applies: it passed in the run of \d{4}-\d\d-\d\d; remove this entry/);
    expect(text).toMatch(/- id: post_srq_recv.context.interrupt\n/);
    expect(text.match(/# rvt-conform:/g)).toHaveLength(3);
    // a second update replaces its marks rather than piling them up
    await cli(['expectations', 'draft', '--from', join(fixed, 'results.json'), '--update', file]);
    expect((await readFile(file, 'utf8')).match(/# rvt-conform:/g)).toHaveLength(3);
  });

  it('refuses to draft over an existing file (exit 2, pointing at --update)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-draft-'));
    const file = join(dir, 'known.yaml');
    await writeFile(file, 'expectations: []\n');
    const r = await cli(['expectations', 'draft', '--from', join(dir, 'results.json'), '-o', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`-o ${file} exists: a draft would replace its entries`);
    expect(r.stderr).toContain(`--update ${file}`);
  });
});
