import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCases } from '../../suites/index.js';
import { runCli } from '../cli-in-process.js';
import { MODEL_EXPECTATIONS } from '../helpers.js';

const outDir = () => mkdtemp(join(tmpdir(), 'rvt-kselftest-'));
const kselftest = async (args: string[]) => runCli(['kselftest', '--out', await outDir(), ...args], { CI: '1' });

/** A KTAP line: version, plan, result, diagnostic, each possibly indented (a subtest). */
const KTAP_LINE = /^( {2})*(KTAP version 1|1\.\.\d+( # SKIP .*)?|(not )?ok \d+ [^#]+( # (SKIP|XFAIL|ERROR)( .*)?)?|# .*)$/;

describe('rvt-conform kselftest: the run as a kselftest for kernel CI (LAVA, LKFT)', () => {
  it('prints KTAP and nothing else on stdout, and exits 0 when the gate passes', async () => {
    const r = await kselftest(['--expectations', MODEL_EXPECTATIONS]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['KTAP version 1', `1..${allCases.length + 1}`]);
    expect(lines.filter((l) => !KTAP_LINE.test(l))).toEqual([]);
    expect(lines.at(-1)).toBe(`ok ${allCases.length + 1} gate`);
  });

  it('exits 1 when the gate fails, the failures not ok', async () => {
    const r = await kselftest(['--adapter', 'mutant:capacity-minus-one', '--case', 'post_srq_recv/*']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^ {2}not ok \d+ post_srq_recv\.capacity\.at-least-max_wr$/m);
    expect(r.stdout).toMatch(/^not ok \d+ gate$/m);
  });

  it('exits 4 (skip) with a KTAP skip plan when the implementation cannot be reached here', async () => {
    const r = await kselftest(['--adapter', 'grpc', '--target', '127.0.0.1:1']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toMatch(/^KTAP version 1\n1\.\.0 # SKIP cannot reach the rvt-conform agent at 127\.0\.0\.1:1: .*\n$/);
  });

  it('still exits 2 on bad input: a job that asks for the wrong thing is not a skip', async () => {
    const bad = join(await outDir(), 'bad.yaml');
    await writeFile(bad, 'x: [\n');
    const r = await kselftest(['--expectations', bad]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
  });
});
