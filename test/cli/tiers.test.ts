import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTiersInVm } from '../../guest/run-in-vm.js';
import { loadTiersFile } from '../../cli/tiers-file.js';
import { tierRunArgs } from '../../cli/commands/tiers.js';
import { runCli } from '../cli-in-process.js';
import { ROOT } from '../helpers.js';

const tiersFile = async (text: string) => {
  const path = join(await mkdtemp(join(tmpdir(), 'rvt-tiers-')), 'tiers.yaml');
  await writeFile(path, text);
  return path;
};

const TIER = '  - name: kernel-rxe\n    adapter: kernel\n    device: rxe0\n    out: conformance-report/kernel-rxe\n';

describe('tiers files', () => {
  it('reads CI\'s own files: every device and layer on 6.1, rdmavt and rxe0 on 6.12, every tier with its expectations', async () => {
    const tiers = await loadTiersFile(join(ROOT, '.ci/tiers.yaml'));
    expect(tiers.map((t) => `${t.adapter} on ${t.device}`)).toEqual(['kernel on rxe0', 'kernel on siw0', 'kernel on rvt_sim0', 'ibverbs on rvt_sim0', 'ibverbs on siw0']);
    expect(tiers.every((t) => t.expectations !== undefined)).toBe(true);
    const on612 = await loadTiersFile(join(ROOT, '.ci/tiers-6.12.yaml'));
    expect(on612.map((t) => `${t.adapter} on ${t.device}`)).toEqual(['kernel on rvt_sim0', 'ibverbs on rvt_sim0', 'kernel on rxe0']);
    // No tier depends on which kernel is newest on the machine: the 6.12 file names it, CI passes 6.1's.
    expect(on612.every((t) => t.kernel === '.vm-cache/kernels/6.12' && t.expectations !== undefined)).toBe(true);
  });

  it('asks the guest run of a tier with kernelCoverage for --kernel-coverage, and of the others not', async () => {
    const [traced, plain] = await loadTiersFile(await tiersFile(`tiers:\n${TIER}    kernelCoverage: true\n${TIER.replace(/kernel-rxe/g, 'plain')}`));
    expect(tierRunArgs(traced!)).toEqual(['--quiet', '--kernel-coverage']);
    expect(tierRunArgs(plain!)).toEqual(['--quiet']);
  });

  it('refuses a kernel that is not there before any boot, naming it (exit 2)', async () => {
    const path = await tiersFile(`tiers:\n${TIER}    kernel: /nonexistent/kernel\n`);
    const r = await runCli(['tiers', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--kernel \/nonexistent\/kernel: .* is not a folder/);
  });

  it.each([
    ['not YAML', 'tiers: [', /is not valid YAML/],
    ['no tiers', 'tiers: []\n', /tiers: Too small/],
    ['an unknown device', TIER.replace('rxe0', 'mlx5_0'), /tiers\.0\.device: Invalid option/],
    ['an adapter that needs no VM', TIER.replace('adapter: kernel', 'adapter: model'), /tiers\.0\.adapter: Invalid option/],
    ['a misspelt field', `${TIER}    profle: rdmavt\n`, /Unrecognized key: "profle"/],
    ['a name used twice', `${TIER}${TIER.replace('out: conformance-report/kernel-rxe', 'out: conformance-report/other')}`, /the tier name kernel-rxe is used twice/],
  ])('refuses %s, naming the file and the field (exit 2, before any boot)', async (_what, text, message) => {
    const path = await tiersFile(`tiers:\n${text}`.replace('tiers:\ntiers:', 'tiers:'));
    const r = await runCli(['tiers', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(path);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['--repeat', '0'],
    ['--repeat', '21'],
    ['--repeat', 'two'],
    ['--load', '-1'],
    ['--load', '17'],
  ])('refuses %s %s before any boot (exit 2)', async (flag, value) => {
    const r = await runCli(['tiers', await tiersFile(`tiers:\n${TIER}`), flag, value]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(flag);
    expect(r.stderr).toMatch(/expected an integer from \d+ to \d+/);
  });

  it('refuses an expectations file that is not there, before any boot', async () => {
    const r = await runCli(['tiers', await tiersFile(`tiers:\n${TIER}    expectations: expectations/nosuch.yaml\n`)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('tier kernel-rxe: no expectations file expectations/nosuch.yaml');
  });
});

describe('one boot for several tiers: what is refused before booting', () => {
  const tier = { name: 't', adapter: 'kernel' as const, device: 'rxe0' as const, args: [] };

  it('an out folder the guest cannot write (outside the current directory)', async () => {
    await expect(runTiersInVm([{ ...tier, out: '/var/tmp/elsewhere' }])).rejects.toThrow(/is not inside the current directory/);
  });

  it('out folders whose common parent holds the project (the guest would load it uncached)', async () => {
    await expect(runTiersInVm([{ ...tier, out: join(ROOT, 'a') }, { ...tier, name: 'u', out: join(ROOT, 'b') }])).rejects.toThrow(/holds the project/);
  });

  it('two tiers writing into one folder', async () => {
    await expect(runTiersInVm([{ ...tier, out: join(ROOT, 'conformance-report/x') }, { ...tier, name: 'u', out: join(ROOT, 'conformance-report/x') }])).rejects.toThrow(/same out folder/);
  });
});
