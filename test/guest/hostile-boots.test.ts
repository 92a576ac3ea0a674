import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHostileInVm } from '../../guest/hostile-in-vm.js';
import type { GuestKernel } from '../../vm/kernel.js';
import { GuestEndedEarly, type VmRunOptions, type VmRunResult } from '../../vm/run.js';

// The VM is the one thing these tests cannot have: each "boot" leaves what a guest would have.
const boots: ((options: VmRunOptions) => Promise<VmRunResult>)[] = [];
const boot = async (options: VmRunOptions) => (boots.shift() as (o: VmRunOptions) => Promise<VmRunResult>)(options);

const kernel = { release: '6.1.0-test', form: 'installed', origin: '6.1.0-test', configHash: '0123456789ab' } as GuestKernel;
const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../suites/hostile/fixtures', name), 'utf8');

describe('the boots the hostile scenarios take', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hostile-boots-'));
  });
  afterEach(async () => {
    boots.length = 0;
    await rm(dir, { recursive: true, force: true });
  });
  const leave = async (scenario: string, files: Record<string, string>) => {
    for (const [ext, text] of Object.entries(files)) await writeFile(join(dir, `${scenario}.${ext}`), text);
  };

  it('run the scenarios after one that took the VM down in a fresh boot, and judge that one by the console', async () => {
    const consoleLog = join(dir, 'console.log');
    const scripts: string[] = [];
    boots.push(async (options) => {
      scripts.push(options.command.join(' '));
      await leave('rq-head-out-of-range', { started: '', status: '0\n', ms: '9\n', out: 'hostile: rq-head-out-of-range: send=0\n', err: '', kmsg: fixture('clean.kmsg') });
      await leave('srq-resize-num-sge-over', { started: '', out: '' });
      await writeFile(consoleLog, fixture('oops.console'));
      throw new GuestEndedEarly('the rxe VM stopped without reporting the command\'s status (QEMU exit 0)', consoleLog, { accel: 'kvm' }, { hint: '' });
    });
    boots.push(async (options) => {
      scripts.push(options.command.join(' '));
      await leave('rq-rewrite-race', { started: '', status: '0\n', ms: '9\n', out: 'hostile: rq-rewrite-race: rounds=200\n', err: '', kmsg: '' });
      return { exitCode: 0, consoleLogPath: consoleLog, durationMs: 1, kernel, accel: { accel: 'tcg' } };
    });
    const said: string[] = [];
    const { ends, vm } = await runHostileInVm({ binary: join(dir, 'hostile'), scenarios: ['rq-head-out-of-range', 'srq-resize-num-sge-over', 'rq-rewrite-race'], dir, timeoutS: 60, kernel, say: (l) => said.push(l), boot });
    expect(ends.map((e) => [e.scenario, e.status])).toEqual([
      ['rq-head-out-of-range', 0],
      ['srq-resize-num-sge-over', undefined],
      ['rq-rewrite-race', 0],
    ]);
    expect(ends[1]?.console?.some((l) => l.includes('rvt_modify_srq'))).toBe(true);
    expect(scripts[1]).not.toContain('rq-head-out-of-range');
    expect(scripts[1]).toContain('rq-rewrite-race');
    expect(vm).toMatchObject({ kernel: { release: '6.1.0-test' }, accel: 'tcg' });
    expect(said.some((l) => l.includes('stopped without reporting'))).toBe(true);
  });

  it('give up with the console log named when a boot ran no scenario at all', async () => {
    boots.push(async () => ({ exitCode: 1, consoleLogPath: join(dir, 'none.log'), durationMs: 1, kernel, accel: { accel: 'kvm' } }));
    await expect(runHostileInVm({ binary: 'hostile', scenarios: ['rq-num-sge-over'], dir, timeoutS: 60, kernel, say: () => {}, boot })).rejects.toThrow(/the VM ran no hostile scenario .*none\.log/);
  });

  it('pass on any other failure of the VM as it is', async () => {
    boots.push(async () => {
      throw new Error('qemu-system-x86_64 is not installed');
    });
    await expect(runHostileInVm({ binary: 'hostile', scenarios: ['rq-num-sge-over'], dir, timeoutS: 60, kernel, say: () => {}, boot })).rejects.toThrow('qemu-system-x86_64 is not installed');
  });
});
