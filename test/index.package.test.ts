// The package as a user gets it: `npm pack`, installed into an empty folder, then the CLI, the
// public API (the examples in docs/examples, type-checked and run), the native addon's build and
// the VM runner, all from node_modules/rvt-conform. Run with: npm run test:package (minutes).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { vmSkipReason } from './vm/helpers.js';

const ROOT = process.cwd();
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
/** The commands `rvt-conform --help` lists, each of which must show its own help from the installed package. */
const COMMANDS = ['run', 'list', 'compare', 'expectations', 'repro', 'mutants', 'fuzz', 'spec', 'agent', 'vm', 'tiers', 'build-native'];
const hasLibibverbs = existsSync('/usr/include/infiniband/verbs.h');

let app: string;
let installed: string;
const cli = (args: string[], options: { cwd?: string } = {}) => execa(join(app, 'node_modules/.bin/rvt-conform'), args, { cwd: options.cwd ?? app, reject: false, env: { CI: '1' } });

beforeAll(async () => {
  const packs = await mkdtemp(join(tmpdir(), 'rvt-pack-'));
  // npm pack runs prepare (the build) first, so the tarball holds what this tree builds.
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop() ?? '';
  app = await mkdtemp(join(tmpdir(), 'rvt-app-'));
  await writeFile(join(app, 'package.json'), `${JSON.stringify({ name: 'my-lab', private: true, type: 'module' })}\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(packs, name)], { cwd: app, stdio: 'inherit' });
  installed = join(app, 'node_modules/rvt-conform');
});

describe('the packed package, installed into an empty folder', () => {
  it('ships what it runs on and none of the development tree', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { exports: unknown; types: string };
    expect(manifest.types).toBe('./dist/index.d.ts');
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    for (const absent of ['test', '.ci', 'dist/bench', 'index.ts', 'adapters/model/index.ts']) expect(existsSync(join(installed, absent)), absent).toBe(false);
    const maps = (await readdir(join(installed, 'dist'), { recursive: true })).filter((f) => f.endsWith('.map'));
    expect(maps).toEqual([]);
  });

  it('runs the model suite (its own expectations applied by default), and the help of every command', async () => {
    const run = await cli(['run', '--out', 'reports', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await readdir(join(app, 'reports'))).sort()).toEqual(['ctrf.json', 'junit.xml', 'report.html', 'report.md', 'results.json', 'results.ktap']);
    const help = await cli(['--help']);
    expect(help.exitCode).toBe(0);
    for (const command of COMMANDS) {
      expect(help.stdout).toContain(`  ${command}`);
      const own = await cli([command, '--help']);
      expect(own.exitCode, `${command} --help: ${own.stderr}`).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^Usage: rvt-conform ${command} `));
    }
  });

  it("type-checks and runs the docs' example adapter and case against the installed package", async () => {
    const examples = join(app, 'examples');
    await mkdir(examples);
    await cp(join(ROOT, 'docs/examples'), examples, { recursive: true, filter: (src) => !src.includes('/dist') });
    // The examples' own tsconfig, with Node's types from this checkout (the app has no @types/node).
    const tsconfig = JSON.parse(await readFile(join(examples, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    tsconfig.compilerOptions['typeRoots'] = [join(ROOT, 'node_modules/@types')];
    await writeFile(join(examples, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = await execa(process.execPath, [TSC, '-p', examples], { cwd: app, reject: false });
    expect(tsc.exitCode, tsc.stdout).toBe(0);

    const own = await execa(process.execPath, [join(examples, 'dist/run-my-case.js'), 'my-report'], { cwd: app, reject: false });
    expect(own.exitCode, own.stderr).toBe(0);
    expect(own.stdout).toMatch(/^PASS: \{"pass":1,/);
    const results = JSON.parse(await readFile(join(app, 'my-report/results.json'), 'utf8')) as { cases: { id: string; status: string }[] };
    expect(results.cases).toEqual([expect.objectContaining({ id: 'post_srq_recv/three-lists-in-a-row', status: 'pass' })]);
    expect(await readFile(join(app, 'my-report/report.md'), 'utf8')).toContain('| `post_srq_recv.return.zero-on-success` | documented | yes | pass | 1 |');

    // One case: the whole suite on a renamed model fails its gate without model.yaml's waivers (which name the adapter `model`).
    const adapter = await cli(['run', '--adapter', './examples/dist/counting-adapter.js', '--adapter-option', 'report=stderr', '--case', 'post_srq_recv/single-wr', '--out', 'counted', '--json']);
    expect(adapter.exitCode, adapter.stderr).toBe(0);
    expect(JSON.parse(adapter.stdout)).toMatchObject({ gate: { passed: true } });
    expect(adapter.stderr).toMatch(/counting-model: \{"queryDevice":\d+,.*"postSrqRecv":\d+/);
  });

  it.skipIf(!hasLibibverbs)('builds the native addon there, which --adapter ibverbs then loads (needs libibverbs-dev)', async () => {
    const build = await cli(['build-native']);
    expect(build.exitCode, build.stderr).toBe(0);
    expect(existsSync(join(installed, 'adapters/ibverbs/native/build/Release/rvt_verbs.node'))).toBe(true);
    if (existsSync('/sys/class/infiniband')) return;
    // No RDMA device on this host: the addon loads and says so, rather than that it is not built.
    const run = await cli(['run', '--adapter', 'ibverbs', '--out', 'ib']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).not.toMatch(/not built/);
    expect(run.stderr).toMatch(/device/i);
  });

  it.skipIf(!hasLibibverbs || vmSkipReason !== undefined)('runs a case on rxe0 in the VM, from the installed package', async () => {
    const run = await cli(['run', '--adapter', 'ibverbs', '--vm', '--case', 'post_srq_recv/single-wr', '--out', 'vm-report', '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
    const results = JSON.parse(await readFile(join(app, 'vm-report/results.json'), 'utf8')) as { adapter: { device: { name: string } }; cases: { status: string }[] };
    expect(results.adapter.device.name).toBe('rxe0');
    expect(results.cases.map((c) => c.status)).toEqual(['pass']);
  });
});
