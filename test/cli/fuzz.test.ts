import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('exits 1 on a divergence, and the printed replay command reproduces it; so do its seed and path, negative seed included', async () => {
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
    expect(args).toEqual(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--replay', join(out, 'fuzz.json')]);
    const replay = await cli([...args, '--out', out, '--json']);
    expect(replay.exitCode).toBe(1);
    const replayed = FuzzResults.parse(JSON.parse(replay.stdout));
    expect(replayed.divergence?.message).toBe(first.divergence?.message);
    expect(replayed.divergence?.ran).toEqual(first.divergence?.ran);
    expect(replayed.replayed).toEqual({ file: join(out, 'fuzz.json'), recorded: first.divergence?.message, same: true });
    // fast-check's own replay of the drawing, exact on a model.
    const drawn = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--seed=-9', '--path', first.divergence?.path ?? '', '--out', out, '--json']);
    expect(FuzzResults.parse(JSON.parse(drawn.stdout)).divergence?.commands).toBe(first.divergence?.commands);
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
      expect(r.stderr).toContain('--seed and --path go with the --profile and --max-commands of the run that wrote them');
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

  describe('--replay', () => {
    let found: Promise<string> | undefined;
    /** The directory of a fuzz.json with a divergence of mutant:bad-wr-one-past. */
    const recorded = () =>
      (found ??= (async () => {
        const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
        await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--runs', '50', '--seed=-9', '--out', out]);
        return out;
      })());
    /** A file holding `text`. */
    const written = async (text: string) => {
      const file = join(await mkdtemp(join(tmpdir(), 'rvt-fuzz-')), 'fuzz.json');
      await writeFile(file, text);
      return file;
    };
    /** A copy of the recorded fuzz.json, edited. */
    const edited = async (edit: (json: Record<string, any>) => void) => {
      const json = JSON.parse(await readFile(join(await recorded(), 'fuzz.json'), 'utf8')) as Record<string, any>;
      edit(json);
      return written(JSON.stringify(json));
    };

    it('writes wr_ids as decimal strings, and the run\'s chunk and command timeout', async () => {
      const json = JSON.parse(await readFile(join(await recorded(), 'fuzz.json'), 'utf8')) as { chunk: number; commandTimeoutMs: number; divergence: { ran: { kind: string; wrs?: { wr_id: unknown }[] }[] } };
      expect(json).toMatchObject({ chunk: 16, commandTimeoutMs: 10_000 });
      const wrIds = json.divergence.ran.flatMap((c) => c.wrs?.map((wr) => wr.wr_id) ?? []);
      expect(wrIds.length).toBeGreaterThan(0);
      expect(wrIds.every((id) => typeof id === 'string' && /^\d+$/.test(id))).toBe(true);
    });

    it('a divergence other than the recorded one is a divergence, said to be another (exit 1)', async () => {
      const file = await edited((json) => {
        json['divergence'].message = 'something else';
      });
      const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--replay', file, '--out', await mkdtemp(join(tmpdir(), 'rvt-fuzz-'))]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toContain(`a divergence other than the recorded one (${file}: something else)`);
      expect(r.stdout).toMatch(/^ {2}sequence replayed: /m);
    });

    it('runs with the recorded profile and chunk unless given: --chunk 1 names the command alike', async () => {
      const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
      const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--replay', join(await recorded(), 'fuzz.json'), '--chunk', '1', '--out', out]);
      expect(r.exitCode).toBe(1);
      expect(await fuzzJson(out)).toMatchObject({ profile: 'rdmavt', chunk: 1, replayed: { same: true } });
    });

    it.each([
      ['a file that is not there', async () => '/nonexistent/fuzz.json', /--replay \/nonexistent\/fuzz.json: cannot read it \(ENOENT\)/],
      ['a file that is not JSON', async () => written('{ not json'), /is not JSON: /],
      ['JSON that is no fuzz.json', async () => written('{"schemaVersion": 1}'), /is no fuzz.json: schemaVersion: /],
      [
        'a wr_id that is no u64',
        async () =>
          edited((json) => {
            json['divergence'].ran.find((c: { wrs?: unknown[] }) => (c.wrs?.length ?? 0) > 0).wrs[0].wr_id = '18446744073709551616';
          }),
        /is no fuzz.json: divergence.ran.\d+.wrs.0.wr_id: /,
      ],
      [
        'a run without a divergence',
        async () =>
          edited((json) => {
            json['divergence'] = null;
          }),
        /records no divergence: nothing to replay/,
      ],
      ['a fuzz.json written before it recorded the commands', async () => edited((json) => delete json['divergence'].ran), /was written before fuzz.json recorded the commands of a divergence/],
    ])('%s is bad input (exit 2, one line)', async (_name, fileOf, message) => {
      const r = await cli(['fuzz', '--adapter', 'mutant:bad-wr-one-past', '--replay', await fileOf()]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });

    it('an old fuzz.json is told how to replay it with its seed and path', async () => {
      const r = await cli(['fuzz', '--replay', await edited((json) => delete json['divergence'].ran)]);
      expect(r.stderr).toMatch(/--profile rdmavt --seed=-9 --path \S+, or fuzz again/);
    });

    it('a replay that shows nothing says so, with the recorded divergence (exit 2, never "no divergence")', async () => {
      const r = await cli(['fuzz', '--adapter', 'model', '--replay', join(await recorded(), 'fuzz.json'), '--out', await mkdtemp(join(tmpdir(), 'rvt-fuzz-'))]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^fuzz: replaying \d+ recorded commands\nrvt-conform: the replay of \S+fuzz.json showed no divergence; the recorded one: #\d+ /);
      expect(r.stdout).not.toContain('no divergence');
    });

    it('with --vm, a file the guest cannot see is refused before anything boots', async () => {
      // The model takes no --vm: were the file let through, that would refuse it, still before a boot.
      const r = await cli(['fuzz', '--adapter', 'model', '--vm', '--replay', join(await recorded(), 'fuzz.json')]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/with --vm, --replay \S+fuzz.json must be a file the guest sees/);
    });

    it('--replay with --seed or --path is refused', async () => {
      const r = await cli(['fuzz', '--replay', 'fuzz.json', '--seed', '1']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/--replay runs the sequence fuzz.json recorded: --seed and --path would draw one/);
    });
  });

  it('a divergence on an implementation with an RNR timer replays from its printed command to the same message, after a shrink cut short by --shrink-time', async () => {
    // The lifo-consumption mutant with a wall-clock RNR timer, as an external adapter module.
    const fixture = fileURLToPath(new URL('../suites/fuzz/rnr-timer.ts', import.meta.url));
    const out = await mkdtemp(join(tmpdir(), 'rvt-fuzz-'));
    const r = await cli(['fuzz', '--adapter', fixture, '--adapter-option', 'mutant=lifo-consumption', '--runs', '100', '--seed', '5', '--max-commands', '60', '--shrink-time', '1', '--out', out]);
    expect(r.exitCode).toBe(1);
    const first = await fuzzJson(out);
    // A whole shrink takes some 10 s here (each sequence waits for the timers).
    expect(first.shrinking).toBe('stopped');
    const [, ...args] = shellSplit(first.divergence?.replay ?? '');
    expect(args).toEqual(['fuzz', '--adapter', fixture, '--adapter-option', 'mutant=lifo-consumption', '--replay', join(out, 'fuzz.json')]);
    const again = await cli([...args, '--out', await mkdtemp(join(tmpdir(), 'rvt-fuzz-'))]);
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toContain(`the recorded divergence shows again (${join(out, 'fuzz.json')})`);
    expect(again.stdout).toContain(`DIVERGENCE: ${first.divergence?.message}\n`);
  }, 120_000);

  it('replays with the adapter reached the same way: device, VM, agent and credentials, each word quoted as the shell needs', () => {
    const flags = { adapter: 'grpc', target: 'lab:7471', tlsCa: '/etc/ca dir/ca.pem', tokenFile: "it's.token" };
    expect(shellSplit(replayCommand(flags, 'out dir/fuzz.json', false))).toEqual(['rvt-conform', 'fuzz', '--adapter', 'grpc', '--target', 'lab:7471', '--tls-ca', '/etc/ca dir/ca.pem', '--token-file', "it's.token", '--replay', 'out dir/fuzz.json']);
    expect(shellSplit(replayCommand({ adapter: 'kernel', device: 'rvt_sim0', maxCommands: 60, expectations: 'expectations/fuzz-rdmavt.yaml' }, 'conformance-report/fuzz.json', true))).toEqual([
      'rvt-conform',
      'fuzz',
      '--adapter',
      'kernel',
      '--device',
      'rvt_sim0',
      '--vm',
      '--expectations',
      'expectations/fuzz-rdmavt.yaml',
      '--replay',
      'conformance-report/fuzz.json',
    ]);
    // a run drawn from the corpus: the seed's runs up to it again, under the tracer, with the bound it drew with
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
