// Boots the VM once with rvt_sim0 and the rvtc module, and checks RUN_CONCURRENT's payload fields
// at the module: out-of-bounds values sent past the plan's schema are refused with a message
// (never an oops), and a small plan with a payload places every receive's bytes in its own WR.
// Run alone with: npx vitest run test/adapters/kernel/concurrent.vm.test.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Placement } from '../../../adapters/concurrent.js';
import { resolveKernel } from '../../../vm/kernel.js';
import { rvtcModule } from '../../../vm/rvtc.js';
import { VM_TEST_TIMEOUT_MS, runGuestScript, vmSkipReason } from '../../vm/helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/concurrent-payload.mjs', import.meta.url));

interface Answer {
  refusals: Record<string, string>;
  err: number;
  stage: string;
  placements: number[];
}

describe.skipIf(vmSkipReason !== undefined)(`rvtc's RUN_CONCURRENT with a payload on rvt_sim0${vmSkipReason ? ` (skipped: ${vmSkipReason})` : ''}`, () => {
  let work = '';
  let answer: Answer;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rvt-concurrent-test-'));
    const script = `"$NODE" "$FIXTURE" rvt_sim0 > answer.json 2> fixture.log; dmesg > dmesg.txt`;
    await runGuestScript(script, { workDir: work, device: 'rvt_sim0', modules: [await rvtcModule(resolveKernel())], env: { NODE: process.execPath, FIXTURE } });
    answer = JSON.parse(readFileSync(join(work, 'answer.json'), 'utf8')) as Answer;
  }, VM_TEST_TIMEOUT_MS);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('refuses each out-of-bounds payload field with a message saying what', () => {
    expect(answer.refusals).toEqual({
      'payload 12': expect.stringMatching(/payload 12 bytes: want 0, or a multiple of 8 in 8\.\.256/),
      'payload 4': expect.stringMatching(/payload 4 bytes: want 0, or a multiple of 8 in 8\.\.256/),
      'payload 512': expect.stringMatching(/payload 512 bytes/),
      'payload 2^32-8': expect.stringMatching(/payload 4294967288 bytes/),
      'reserved 1': expect.stringMatching(/reserved is 1, not 0/),
      'no SGE': expect.stringMatching(/poster 0: a payload needs an SGE a WR/),
    });
  });

  it('runs a plan with a payload: every receive recorded, each payload in the buffer of its own WR', () => {
    expect([answer.err, answer.stage]).toEqual([0, '']);
    expect(answer.placements).toEqual(Array.from({ length: 16 }, () => Placement.OK));
  });

  it('leaves the kernel log without a splat', () => {
    expect(readFileSync(join(work, 'dmesg.txt'), 'utf8')).not.toMatch(/BUG|WARNING|Oops|general protection/);
  });
});
