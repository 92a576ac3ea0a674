import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { applyConfig, findConfig } from '../../cli/config-file.js';
import { IN_GUEST_ENV } from '../../vm/job-script.js';
import { runCli } from '../cli-in-process.js';
import { MODEL_EXPECTATIONS } from '../helpers.js';

const folder = () => mkdtemp(join(tmpdir(), 'rvt-config-'));

async function configIn(dir: string, text: string, name = 'rvt-conform.config.yaml'): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('the config file', () => {
  afterEach(() => {
    delete process.env[IN_GUEST_ENV];
  });

  it('gives run its adapter, case, formats and out; paths are relative to the file', async () => {
    const dir = await folder();
    const file = await configIn(dir, ['adapter: mutant:capacity-minus-one', "case: 'post_srq_recv/fill-to-capacity'", 'formats: [md]', 'out: reports/here', ''].join('\n'));
    const r = await runCli(['run', '--config', file, '--quiet'], { CI: '1' });
    expect(r.exitCode, r.stderr).toBe(1);
    expect((await readdir(join(dir, 'reports/here'))).sort()).toEqual(['report.md', 'results.json']);
  });

  it('is overridden by the flags given on the command line', async () => {
    const dir = await folder();
    const file = await configIn(dir, ['adapter: mutant:capacity-minus-one', "case: 'post_srq_recv/fill-to-capacity'", 'formats: [md]', 'out: out', ''].join('\n'));
    const r = await runCli(['run', '--config', file, '--adapter', 'model', '--format', 'junit', '--quiet'], { CI: '1' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await readdir(join(dir, 'out'))).sort()).toEqual(['junit.xml', 'results.json']);
  });

  it('is found in the current directory by its name, as JSON too, expectations path included', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'sub'));
    await configIn(dir, JSON.stringify({ expectations: MODEL_EXPECTATIONS, formats: ['json'], out: 'sub/r' }), 'rvt-conform.config.json');
    const found = await findConfig(undefined, dir);
    expect(found?.config).toMatchObject({ expectations: MODEL_EXPECTATIONS, out: join(dir, 'sub/r'), formats: ['json'] });
    expect(await findConfig(undefined, await folder())).toBeUndefined();
  });

  it('takes the kernel the VM boots: a folder relative to the file, a release as written; without --vm it is refused', async () => {
    const dir = await folder();
    const staged = await findConfig(await configIn(dir, 'kernel: kernels/6.12\n'));
    expect(staged?.config.kernel).toBe(join(dir, 'kernels/6.12'));
    const release = await findConfig(await configIn(dir, 'kernel: 6.1.0-57-amd64\n', 'other.yaml'));
    expect(release?.config.kernel).toBe('6.1.0-57-amd64');
    const r = await runCli(['run', '--config', join(dir, 'other.yaml'), '--quiet']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--kernel chooses the kernel the VM boots/);
  });

  it('refuses an unknown key or a bad value, naming the file and the key (exit 2)', async () => {
    const dir = await folder();
    for (const [text, message] of [
      ['adaptor: model\n', /is not a valid config file:\n {2}\(top\): Unrecognized key: "adaptor"/],
      ['formats: [pdf]\n', /formats\.0: Invalid option/],
      ['timeout: 0\n', /timeout: Too small/],
      ['out: [a\n', /is not valid YAML/],
    ] as const) {
      const file = await configIn(dir, text);
      const r = await runCli(['run', '--config', file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(message);
    }
    const missing = await runCli(['run', '--config', join(dir, 'nope.yaml')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the config file .*nope\.yaml: no such file \(ENOENT\)/);
  });

  it('merges adapter options with --adapter-option, the command line winning; in the guest it leaves vm to the host', () => {
    const command = new Command('run').option('--vm', '', false).option('--adapter-option <kv>').option('--device <name>');
    command.setOptionValueWithSource('adapterOption', { label: 'cli' }, 'cli');
    applyConfig(command, { vm: true, device: 'rxe0', adapterOptions: { label: 'config', depth: 2 } });
    expect(command.opts()).toEqual({ vm: true, device: 'rxe0', adapterOption: { label: 'cli', depth: 2 } });
    const guest = new Command('run').option('--vm', '', false);
    process.env[IN_GUEST_ENV] = '1';
    applyConfig(guest, { vm: true });
    expect(guest.opts()).toEqual({ vm: false });
  });
});
