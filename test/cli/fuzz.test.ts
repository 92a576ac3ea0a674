import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli-in-process.js';
import { describe, expect, it } from 'vitest';
import { guidedReplayCommand, replayCommand } from '../../cli/commands/fuzz.js';
import { FuzzResults } from '../../suites/fuzz/report-schema.js';
import { serveModel } from '../adapters/grpc/fixture.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });
const fuzzJson = async (out: string) => FuzzResults.parse(JSON.parse(await readFile(join(out, 'fuzz.json'), 'utf8')));

/** The arguments a POSIX shell makes of a command line: the printed replay command must survive it. */
const shellSplit = (line: string) => execFileSync('sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' }).split('\0').slice(0, -1);

describe('rvt-conform fuzz', () => {
  it('writes fuzz.json and exits 0 when the model agrees with itself', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--runs', '20', '--seed', '4', '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(await fuzzJson(out)).toMatchObject({ adapter: 'model', seed: 4, runs: 20, divergence: null });
    // without --kernel-coverage: no corpus, no table
    const written = JSON.parse(await readFile(join(out, 'fuzz.json'), 'utf8')) as object;
    expect(Object.keys(written)).not.toContain('corpus');
    expect(Object.keys(written)).not.toContain('kernelCoverage');
  });

  it('labels a model against the model a self-check, and prints the share of commands on live QPs', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--runs', '20', '--seed', '4', '--out', out]);
    const results = await fuzzJson(out);
    expect(results.kind).toBe('self-check');
    expect(results.liveShare).toBeGreaterThan(0.5);
    expect(r.stdout).toContain('self-check (a model against the model), not a conformance result');
    expect(r.stdout).toContain(`${Math.round(results.liveShare * 100)} % on live QPs`);
  });

  it.each([[['--seed=-5']], [['--seed', '-5']]])('takes a negative seed, as fast-check draws them (%j)', async (seed) => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--runs', '3', ...seed, '--out', out]);
    expect(r.exitCode).toBe(0);
    expect((await fuzzJson(out)).seed).toBe(-5);
  });

  it('takes --shrink-time in whole seconds: a first divergence reported unshrunk says so', async () => {
    expect((await cli(['fuzz', '--shrink-time', '0'])).exitCode).toBe(2);
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--runs', '50', '--seed=-9', '--no-shrink', '--shrink-time', '5', '--out', out]);
    expect(r.exitCode).toBe(1);
    expect((await fuzzJson(out)).shrinking).toBe('none');
    expect(r.stdout).toMatch(/^ {2}sequence \(unshrunk\): /m);
  });

  it('refuses a seed outside 32 bits', async () => {
    const r = await cli(['fuzz', '--seed', '2147483648']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/expected an integer from -2147483648 to 2147483647/);
  });

  it('exits 1 on a divergence, and the printed replay command reproduces it, negative seed included', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--runs', '50', '--seed', '-9', '--out', out]);
    expect(r.exitCode).toBe(1);
    const first = await fuzzJson(out);
    // rdmavt's per-WR loop is shared by post_srq_recv and post_recv: the wrong bad_wr shows in either.
    expect(first.divergence?.message).toMatch(/post_srq_recv|post_recv/);
    // A model is shrunk without a time limit: minimal, and said so.
    expect(first.shrinking).toBe('done');
    expect(r.stdout).toMatch(/^ {2}minimal sequence: /m);
    const printed = /replay: (.*)/.exec(r.stdout)?.[1] ?? '';
    expect(printed).toBe(first.divergence?.replay);
    const [program, ...args] = shellSplit(printed);
    expect(program).toBe('rvt-conform');
    expect(args).toContain('--seed=-9');
    const replay = await cli([...args, '--out', out, '--json']);
    expect(replay.exitCode).toBe(1);
    expect(FuzzResults.parse(JSON.parse(replay.stdout)).divergence?.commands).toBe(first.divergence?.commands);
  });

  describe('a replay that cannot be one (exit 2, one line, never "no divergence" with exit 0)', () => {
    let found: Promise<string> | undefined;
    /** The path of a real divergence, of seed -9. */
    const divergencePath = () =>
      (found ??= (async () => {
        const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
        await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--runs', '50', '--seed=-9', '--out', out]);
        return (await fuzzJson(out)).divergence?.path ?? '';
      })());

    it.each([
      ['a path of another seed', '5', (path: string) => path, /--path \S+ is no replay path of seed 5: Unable to replay/],
      ['a run that was never drawn', '-9', (path: string) => `99999:0@${path.split('@')[1]}`, /--path 99999:0@\S+ is no replay path of seed -9/],
      ["another sequence's replay part", '-9', (path: string) => `${path.split('@')[0]}@AAAA:BBBB`, /--path \S+@AAAA:BBBB is no replay path of seed -9/],
    ])('%s', async (_name, seed, pathOf, message) => {
      const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--runs', '50', `--seed=${seed}`, '--path', pathOf(await divergencePath())]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('copy the whole replay command from fuzz.json');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });

    it('a well-formed path whose replay finds nothing', async () => {
      const r = await cli(['fuzz', '--seed', '4', '--path', '3', '--out', await mkdtemp(join(tmpdir(), 'rvt-fuzz-'))]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^rvt-conform: the replay of --seed=4 --path 3 found no divergence: the path is not one this seed drew/);
      expect(r.stdout).not.toContain('no divergence');
    });

    it('a path without its seed', async () => {
      const r = await cli(['fuzz', '--path', '3']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/--path replays a divergence of one seed: give its --seed too/);
    });
  });

  it('replays with the adapter reached the same way: device, VM, agent and credentials, each word quoted as the shell needs', () => {
    const flags = { adapter: 'grpc', target: 'lab:7471', tlsCa: '/etc/ca dir/ca.pem', tokenFile: "it's.token" };
    const line = replayCommand(flags, 'documented', -7, '3:1@Ab"c', false);
    expect(shellSplit(line)).toEqual(['rvt-conform', 'fuzz', '--adapter', 'grpc', '--target', 'lab:7471', '--tls-ca', '/etc/ca dir/ca.pem', '--token-file', "it's.token", '--profile', 'documented', '--seed=-7', '--path', '3:1@Ab"c']);
    expect(shellSplit(replayCommand({ adapter: 'kernel', device: 'rvt_sim0' }, 'rdmavt', 1, '0', true))).toEqual(['rvt-conform', 'fuzz', '--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--profile', 'rdmavt', '--seed=1', '--path', '0']);
    // A sequence bound other than the default is part of what a replay must draw with.
    expect(shellSplit(replayCommand({ adapter: 'kernel', device: 'rvt_sim0', maxCommands: 60 }, 'rdmavt', 1, '0', true))).toEqual(['rvt-conform', 'fuzz', '--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--max-commands', '60', '--profile', 'rdmavt', '--seed=1', '--path', '0']);
    expect(replayCommand({ adapter: 'model', maxCommands: 200 }, 'rdmavt', 1, '0', false)).not.toContain('--max-commands');
    // a run drawn from the corpus: the seed's runs up to it again, under the tracer, never a path
    expect(shellSplit(guidedReplayCommand({ adapter: 'kernel', device: 'rvt_sim0', kernelCoverage: true, maxCommands: 60 }, 'rdmavt', 1, 17, true))).toEqual(['rvt-conform', 'fuzz', '--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--max-commands', '60', '--kernel-coverage', '--profile', 'rdmavt', '--seed=1', '--runs', '17']);
    expect(guidedReplayCommand({ adapter: 'kernel', device: 'rxe0', kernelCoverage: 'rdma_rxe' }, 'rdmavt', 1, 3, false)).toContain('--kernel-coverage rdma_rxe --profile');
  });

  it('fuzzes through an agent with --target, like run (a model behind it is still a self-check)', async () => {
    const served = await serveModel();
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--adapter', 'grpc', '--target', served.agent.address, '--runs', '2', '--seed', '1', '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(await fuzzJson(out)).toMatchObject({ adapter: 'model', kind: 'self-check', divergence: null });
  });

  it.each([
    [['--target', '127.0.0.1:7471'], /--target is for --adapter grpc, not model/],
    [['--adapter', 'grpc'], /--adapter grpc needs --target HOST:PORT/],
    [['--vm'], /--vm is for --adapter ibverbs or kernel, not model/],
    [['--device', 'rxe0'], /--device is for --adapter ibverbs or kernel, not model/],
    [['--path', 'garbage'], /expected the replay path of a divergence from fuzz.json/],
  ])('checks %j as run does (exit 2)', async (flags, message) => {
    const r = await cli(['fuzz', ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
