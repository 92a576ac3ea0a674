import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FATAL_LINE_ERE } from '../../adapters/kernel/kmsg.js';
import { collectBoot, consoleFrom, hostileScript, scenarioRecords } from '../../guest/hostile-in-vm.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../suites/hostile/fixtures', name), 'utf8');

describe("the hostile tier's guest job", () => {
  const script = hostileScript({ binary: '/out/scenarios/hostile', device: 'rvt_sim0', scenarios: ['rq-num-sge-over', 'rq-num-sge-huge'], dir: '/out/scenarios', timeoutS: 60 });

  it('runs each scenario in its own process under a timeout, between markers in the kernel log, and reads the log after each', () => {
    const lines = script.split('\n');
    const first = lines.findIndex((l) => l.includes("'<3>rvt-hostile: scenario rq-num-sge-over starts'"));
    const run = lines.findIndex((l) => l.startsWith("timeout -k 5 60 '/out/scenarios/hostile' -d 'rvt_sim0' 'rq-num-sge-over'"));
    const dump = lines.findIndex((l) => l.startsWith('dd if=/dev/kmsg') && l.includes("'/out/scenarios/rq-num-sge-over.kmsg'"));
    const second = lines.findIndex((l) => l.includes('scenario rq-num-sge-huge starts'));
    expect([first, run, dump, second].every((i) => i >= 0)).toBe(true);
    expect(first < run && run < dump && dump < second).toBe(true);
    expect(lines[run]).toContain("echo $? >'/out/scenarios/rq-num-sge-over.status'");
    // A lockup is reported within the scenario's settle time, not in a later scenario's.
    expect(script).toContain('echo 2 >/proc/sys/kernel/watchdog_thresh');
    // An oops, a lockup or a stuck task ends the VM at once instead of at its time limit.
    for (const knob of ['panic_on_oops', 'softlockup_panic', 'hung_task_panic']) expect(script).toContain(`echo 1 >/proc/sys/kernel/${knob}`);
    expect(script).toContain('echo on >/proc/sys/kernel/printk_devkmsg');
  });

  it('is a shell script sh accepts', async () => {
    expect((await execa('sh', ['-n', '-c', script], { reject: false })).exitCode).toBe(0);
  });

  it('ends the boot after a scenario whose log shows the kernel went down, and only then', async () => {
    const check = script.split('\n').find((l) => l.startsWith('if grep -Eq')) as string;
    expect(check).toContain('exit 0');
    // the pattern grep gets is the kernel log watch's own
    const grep = (text: string) => execa('grep', ['-Eq', FATAL_LINE_ERE], { input: text, reject: false }).then((r) => r.exitCode);
    expect(await grep(fixture('oops.kmsg'))).toBe(0);
    expect(await grep(fixture('kasan.kmsg'))).toBe(1);
    expect(await grep('4,1,1,-;WARNING: CPU: 0 PID: 1 at qp.c:2041 rvt_qp_wqe_reserve\n')).toBe(1);
  });

  it("takes the kernel log from the scenario's start marker on, dropping continuation lines", () => {
    const records = scenarioRecords(fixture('kasan.kmsg'), 'rq-num-sge-over');
    expect(records[0]?.text).toBe('rvt-hostile: scenario rq-num-sge-over starts');
    expect(records.some((r) => r.text.startsWith(' SUBSYSTEM'))).toBe(false);
    expect(scenarioRecords(fixture('clean.kmsg'), 'rq-head-out-of-range').map((r) => r.seq)).toEqual([500, 501, 502]);
  });

  it("takes the console from the scenario's start marker on", () => {
    expect(consoleFrom(fixture('oops.console'), 'srq-resize-num-sge-over')[0]).toContain('scenario srq-resize-num-sge-over starts');
    expect(consoleFrom(fixture('oops.console'), 'rq-num-sge-over')).toEqual([]);
  });
});

describe('what a boot left', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hostile-boot-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));
  const leave = async (scenario: string, files: Record<string, string>) => {
    for (const [ext, text] of Object.entries(files)) await writeFile(join(dir, `${scenario}.${ext}`), text);
  };

  it('is each scenario that ended, then the one the VM ended in, with the console; the rest are for the next boot', async () => {
    await leave('rq-head-out-of-range', { started: '', status: '0\n', ms: '812\n', out: 'hostile: rq-head-out-of-range: send=0\n', err: '', kmsg: fixture('clean.kmsg') });
    await leave('srq-resize-num-sge-over', { started: '', out: '' });
    const ends = collectBoot(dir, ['rq-head-out-of-range', 'srq-resize-num-sge-over', 'rq-rewrite-race'], fixture('oops.console'));
    expect(ends.map((e) => [e.scenario, e.status, e.durationMs])).toEqual([
      ['rq-head-out-of-range', 0, 812],
      ['srq-resize-num-sge-over', undefined, 0],
    ]);
    expect(ends[0]?.kmsg.map((r) => r.seq)).toEqual([500, 501, 502]);
    expect(ends[1]?.console?.some((l) => l.includes('Kernel panic'))).toBe(true);
  });

  it('stops at a scenario whose log shows an oops: those after it ran on a kernel that cannot be trusted', async () => {
    await leave('rq-num-sge-huge', { started: '', status: '137\n', ms: '40\n', out: '', err: '', kmsg: fixture('oops.kmsg') });
    await leave('rq-rewrite-race', { started: '', status: '0\n', ms: '1\n', out: 'hostile: rq-rewrite-race: rounds=1\n', err: '', kmsg: '' });
    expect(collectBoot(dir, ['rq-num-sge-huge', 'rq-rewrite-race'], '').map((e) => e.scenario)).toEqual(['rq-num-sge-huge']);
  });

  it('is nothing when the boot never reached the first scenario', () => {
    expect(collectBoot(dir, ['rq-num-sge-over'], '')).toEqual([]);
  });
});
