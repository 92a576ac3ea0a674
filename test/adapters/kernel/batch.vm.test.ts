// Boots the VM once with rxe0, rvt_sim0 and the rvtc module, and checks on each device that a
// batch (rvtc's BATCH and DRAIN_CQ, through the kernel worker) answers what the same calls one at
// a time answer, that DRAIN_CQ waits for what does not come and no longer, and that malformed
// batches are refused with a reply, the kernel log staying clean (bench/batch-guest.ts check).
// Run alone with: npx vitest run --project vm test/adapters/kernel/batch.vm.test.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchCheck } from '../../../bench/batch-guest.js';
import { resolveKernel } from '../../../vm/kernel.js';
import { projectRoot } from '../../../vm/project-root.js';
import { rvtcModule } from '../../../vm/rvtc.js';
import { VM_TEST_TIMEOUT_MS, runGuestScript, vmSkipReason } from '../../vm/helpers.js';

const DEVICES = ['rxe0', 'rvt_sim0'] as const;
const GUEST = join(projectRoot(), 'dist/bench/batch-guest.js');

describe.skipIf(vmSkipReason !== undefined)(`batches on rxe0 and rvt_sim0${vmSkipReason ? ` (skipped: ${vmSkipReason})` : ''}`, () => {
  let work = '';
  const read = (name: string) => readFileSync(join(work, name), 'utf8');
  const checked = (device: string) => JSON.parse(read(`${device}.json`)) as BatchCheck;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rvt-batch-test-'));
    const script = `
      for device in ${DEVICES.join(' ')}; do
        "$NODE" "$GUEST" $device check > $device.json 2> $device.err; echo "$device $?" >> exits
      done
      dmesg > dmesg.txt`;
    await runGuestScript(script, { workDir: work, devices: DEVICES, modules: [await rvtcModule(resolveKernel())], env: { NODE: process.execPath, GUEST } });
  }, VM_TEST_TIMEOUT_MS);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each(DEVICES)('%s: the batched sequence answers what the calls one at a time answer', (device) => {
    expect(read('exits'), read(`${device}.err`)).toContain(`${device} 0`);
    const { oneByOne, batched } = checked(device);
    expect(batched).toEqual(oneByOne);
    // 20 commands of 3 steps, the SRQ query, the events, then the unknown QP ended both
    const results = (batched as { results: { call: string; error?: string }[] }).results;
    expect(results).toHaveLength(63);
    expect(results.at(-1)?.error).toMatch(/no qp 999/);
    expect(results.filter((r) => r.call === 'drainCq').every((r) => (r as unknown as { result: { completions: unknown[] } }).result.completions.length === 2)).toBe(true);
  });

  it.each(DEVICES)('%s: DRAIN_CQ waits out its time for a completion that never comes, and answers none', (device) => {
    const { drainWaitedMs, drainAnswer } = checked(device);
    expect(drainWaitedMs).toBeGreaterThanOrEqual(300);
    expect(drainWaitedMs).toBeLessThan(3000);
    expect(drainAnswer).toEqual({ results: [{ call: 'drainCq', result: { completions: [] } }] });
  });

  it.each(DEVICES)('%s: malformed batches are refused with a reply, and the session still serves', (device) => {
    const { malformed } = checked(device);
    expect(malformed.map((m) => m.name)).toEqual(['nested', 'concurrent', 'tooMany', 'cutShort', 'overlong', 'trailing', 'countsMore', 'badMagicSub', 'stillServes']);
    for (const m of malformed) expect(m, m.said).toMatchObject({ refused: m.name !== 'stillServes' });
  });

  it("leaves the kernel log free of oopses, and of warnings but rdmavt's own FORTIFY one", () => {
    const dmesg = read('dmesg.txt');
    expect(dmesg).not.toMatch(/BUG:|Oops|general protection/);
    // as in rvt-sim.vm.test.ts: rdmavt's memcpy of a UD WR, printed once per boot if at all
    const warnings = dmesg.split('\n').filter((line) => line.includes('WARNING:'));
    expect(warnings.every((line) => /at drivers\/infiniband\/sw\/rdmavt\/qp\.c:2041 rvt_post_send/.test(line)), warnings.join('\n')).toBe(true);
  });
});
