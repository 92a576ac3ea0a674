import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli-in-process.js';
import { describe, expect, it } from 'vitest';
import { FuzzResults } from '../../suites/fuzz/report-schema.js';


const cli = (args: string[]) => runCli(args, { CI: '1' });

describe('rvt-conform fuzz', () => {
  it('writes fuzz.json and exits 0 when the model agrees with itself', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--runs', '20', '--seed', '4', '--out', out]);
    expect(r.exitCode).toBe(0);
    const results = FuzzResults.parse(JSON.parse(await readFile(join(out, 'fuzz.json'), 'utf8')));
    expect(results).toMatchObject({ adapter: 'model', seed: 4, runs: 20, divergence: null });
  });

  it('exits 1 on a divergence, and the printed replay command reproduces it', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--runs', '50', '--seed', '9', '--out', out]);
    expect(r.exitCode).toBe(1);
    const first = FuzzResults.parse(JSON.parse(await readFile(join(out, 'fuzz.json'), 'utf8')));
    expect(first.divergence?.message).toMatch(/post_srq_recv/);
    const replay = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--seed', String(first.seed), '--path', first.divergence?.path ?? '', '--out', out, '--json']);
    expect(replay.exitCode).toBe(1);
    expect(FuzzResults.parse(JSON.parse(replay.stdout)).divergence?.commands).toBe(first.divergence?.commands);
  });
});
