import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resultsFiles } from '../../../reports/findings/inputs.js';
import { UserError } from '../../../spec/errors.js';

describe('findings: the results files a command line names', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-findings-inputs-'));
    for (const sub of ['k61/kernel-rxe', 'k612/kernel-rxe', 'k612/.hidden', 'empty']) await mkdir(join(dir, sub), { recursive: true });
    for (const file of ['k61/kernel-rxe/results.json', 'k612/kernel-rxe/results.json', 'k612/.hidden/results.json', 'k612/kernel-rxe/report.md', 'other.json']) await writeFile(join(dir, file), '{}');
    // a link back up: followed, the search would never end
    await symlink(dir, join(dir, 'k61/loop'));
  });

  it('searches folders for results.json, in name order, not into hidden folders or through links', () => {
    expect(resultsFiles([dir])).toEqual([join(dir, 'k61/kernel-rxe/results.json'), join(dir, 'k612/kernel-rxe/results.json')]);
  });

  it('takes a file as given, and each file once', () => {
    const file = join(dir, 'other.json');
    expect(resultsFiles([file, join(dir, 'k61'), file])).toEqual([file, join(dir, 'k61/kernel-rxe/results.json')]);
  });

  it('refuses a path that is not there, and a folder without a results.json, naming it', () => {
    expect(() => resultsFiles([join(dir, 'missing')])).toThrow(UserError);
    expect(() => resultsFiles([join(dir, 'missing')])).toThrow(`cannot read ${join(dir, 'missing')}: ENOENT`);
    expect(() => resultsFiles([join(dir, 'empty')])).toThrow(`no results.json under ${join(dir, 'empty')}`);
  });
});
