import { beforeAll, describe, expect, it } from 'vitest';
import { collectFindings } from '../../../reports/findings/collect.js';
import { renderFindingsMarkdown } from '../../../reports/findings/markdown.js';
import { planProofs, proofOf, recordProofs, type ReproRun, unproved } from '../../../reports/findings/prove.js';
import { type FindingsFile, Severity } from '../../../reports/findings/schema.js';
import type { Expectation } from '../../../reports/expectations/load.js';
import { loaded, sampleRuns } from './fixture.js';

const run = (over: Partial<ReproRun>): ReproRun => ({ exitCode: 1, durationMs: 7_940, kernel: '6.1.0-57-amd64', device: 'rvt_sim0', log: ['== the kernel log of the run'], ...over });
const OOPS = ['[  5.100000] BUG: kernel NULL pointer dereference, address: 0000000000000010', '[  5.100100] RIP: 0010:rvt_lkey_ok+0x2cc/0x3a0 [rdmavt]'];
const WARN = ['[ 23.8] memcpy: detected field-spanning write (size 56)', '[ 23.9] WARNING: CPU: 1 PID: 175 at drivers/infiniband/sw/rdmavt/qp.c:2041 rvt_post_send+0x7e6/0x8a0 [rdmavt]'];

describe('findings --reproduce: planning and recording (the VM replaced by what its boots would answer)', () => {
  let file: FindingsFile;
  beforeAll(async () => {
    file = { tool: { name: 'rvt-conform', version: '0' }, ...collectFindings(loaded(await sampleRuns())) };
  }, 60_000);

  it('plans every reproducer written into a folder, on the device it was seen on, those that take the kernel down last', () => {
    const plans = planProofs(file, new Set(Severity.options));
    const written = file.findings.flatMap((f) => f.reproducers.filter((r) => r.dir !== undefined));
    expect(plans).toHaveLength(written.length);
    expect(plans.map((p) => p.dir).sort()).toEqual(written.map((r) => r.dir).sort());
    expect(plans.at(-1)).toMatchObject({ kernelDown: true, dir: expect.stringMatching(/^1-/), device: 'rvt_sim0' });
    expect(plans.slice(0, -1).every((p) => !p.kernelDown)).toBe(true);
  });

  it('plans only the findings seen on the kernel that boots', () => {
    const on612 = planProofs(file, new Set(Severity.options), '6.12.118');
    const seen612 = file.findings.filter((f) => f.seen.some((s) => file.runs[s.run]?.kernel === '6.12.118')).map((f) => f.id);
    expect(on612.length).toBeGreaterThan(0);
    expect(on612.length).toBeLessThan(planProofs(file, new Set(Severity.options)).length);
    expect(on612.every((p) => seen612.includes(p.finding))).toBe(true);
  });

  it('plans only the severities asked for', () => {
    const plans = planProofs(file, new Set(['contract'] as const));
    const contract = file.findings.filter((f) => f.severity === 'contract').map((f) => f.id);
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.every((p) => contract.includes(p.finding))).toBe(true);
  });

  it.each([
    ['contract', run({ exitCode: 0 }), 'reproduced', true],
    ['contract', run({ exitCode: 1 }), 'not-reproduced', false],
    ['contract', run({ exitCode: 4, programStatus: 139 }), 'crashed', false],
    ['crash', run({ exitCode: 4, programStatus: 139 }), 'crashed', true],
    ['crash', run({ exitCode: 4, programStatus: 124 }), 'crashed', true],
    // exit 2: the program found no such device; nothing ran, nothing crashed
    ['crash', run({ exitCode: 4, programStatus: 2 }), 'no-verdict', false],
    ['crash', run({ exitCode: 1 }), 'not-reproduced', false],
    ['oops', run({ exitCode: 4, log: OOPS }), 'crashed', true],
    ['oops', run({ exitCode: 4 }), 'no-verdict', false],
    ['oops', run({ exitCode: undefined, log: OOPS }), 'crashed', true],
    ['oops', run({ exitCode: undefined, log: [] }), 'crashed', false],
    ['memory-safety', run({ exitCode: 1, log: WARN }), 'not-reproduced', true],
    ['memory-safety', run({ exitCode: 1 }), 'not-reproduced', false],
  ] as const)('a %s finding, run %#: its outcome and whether it proves the finding', (severity, r, outcome, proves) => {
    expect(proofOf(severity, r)).toMatchObject({ outcome, proves, seconds: 7.9, kernel: '6.1.0-57-amd64', device: 'rvt_sim0' });
  });

  it("names the kernel's splat line without its time stamp", () => {
    expect(proofOf('oops', run({ exitCode: undefined, log: OOPS })).splat).toBe('BUG: kernel NULL pointer dereference, address: 0000000000000010');
    expect(proofOf('oops', run({ exitCode: undefined, log: OOPS })).exitCode).toBeNull();
  });

  it('records each proof on its reproducer, into findings.md too; one that did not show its finding fails, unless an expectation says why', () => {
    const plans = planProofs(file, new Set(Severity.options));
    const proofs = plans.map((plan) => ({ plan, proof: proofOf(file.findings.find((f) => f.id === plan.finding)?.severity ?? 'contract', run({ exitCode: plan.kernelDown ? undefined : 0, log: OOPS })) }));
    const contract = file.findings.find((f) => f.severity === 'contract');
    const failing = proofs.map((p) => (p.plan.finding === contract?.id ? { ...p, proof: { ...p.proof, outcome: 'not-reproduced' as const, proves: false } } : p));
    const recorded = recordProofs(file, failing);
    expect(recorded.findings.flatMap((f) => f.reproducers.filter((r) => r.proof !== undefined))).toHaveLength(plans.length);
    expect(unproved(recorded).map((f) => f.id)).toEqual([contract?.id]);
    expect(renderFindingsMarkdown(recorded)).toContain('**proved** in the VM: crashed (no verdict: the program or the kernel went down) on linux 6.1.0-57-amd64, rvt_sim0, in 7.9 s with boot; the kernel said `BUG: kernel NULL pointer dereference');
    expect(renderFindingsMarkdown(recorded)).toContain('**not proved** in the VM: did not reproduce');

    const why: Expectation = { id: contract?.cases[0] ?? '', status: 'not-observable', reason: 'the replay cannot reach the state the case left', link: 'https://example.org/why', source: 'e.yaml:2' };
    const excused = recordProofs(file, failing, [why]);
    expect(unproved(excused)).toEqual([]);
    expect(excused.findings.find((f) => f.id === contract?.id)?.reproducers[0]?.proof?.excused).toBe('the replay cannot reach the state the case left (e.yaml:2)');
    // an entry under conditions the run does not meet excuses nothing
    expect(unproved(recordProofs(file, failing, [{ ...why, when: { kernel: '>=7.0' } }]))).toHaveLength(1);
  });
});
