import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../adapters/adapter.js';
import { type Mode, SRQ, type SendSpec, type WrSpec, commandArbitraries, modeArbitrary } from '../../../suites/fuzz/commands.js';

/** The fields the generated commands expose, whichever command each is. */
interface Generated {
  wrs?: WrSpec[];
  sends?: SendSpec[];
  limit?: number;
  maxWr?: number;
}

const sample = (mode: Mode, profile: Profile): Generated[] => fc.sample(fc.oneof(...commandArbitraries(mode, profile)), { numRuns: 3000, seed: 1 }) as Generated[];
const wrsOf = (cmds: Generated[]) => cmds.flatMap((c) => c.wrs ?? []);
const payloadsOf = (cmds: Generated[]) => cmds.flatMap((c) => c.sends?.map((s) => s.length) ?? []);
const held = (wr: WrSpec) => wr.sges.reduce((n, s) => n + s.length, 0);

describe('fuzz command generation', () => {
  it('draws mostly fitting sequences under rdmavt, and each of the other modes', () => {
    const modes = fc.sample(modeArbitrary('rdmavt'), { numRuns: 2000, seed: 2 });
    const share = (m: Mode) => modes.filter((x) => x === m).length / modes.length;
    expect(share('fit')).toBeGreaterThan(0.7);
    expect(share('oversize')).toBeGreaterThan(0.05);
    expect(share('bad-lkey')).toBeGreaterThan(0.05);
  });

  it('in a fitting sequence, every receive posted whole holds every message, and no lkey is bogus', () => {
    const cmds = sample('fit', 'rdmavt');
    const accepted = wrsOf(cmds).filter((wr) => wr.numSge === 'list');
    expect(accepted.length).toBeGreaterThan(1000);
    const biggest = Math.max(...payloadsOf(cmds));
    expect(accepted.every((wr) => held(wr) >= biggest)).toBe(true);
    expect(wrsOf(cmds).some((wr) => wr.numSge === 'zero' || wr.sges.some((s) => s.bogusLkey))).toBe(false);
    // Two sges that share the bytes, so a message can cross from one into the other.
    expect(accepted.some((wr) => wr.sges.length === 2 && wr.sges.every((s) => s.length > 0))).toBe(true);
  });

  it('bogus lkeys come only in bad-lkey sequences, messages larger than a receive only in oversize ones', () => {
    const badLkey = sample('bad-lkey', 'rdmavt');
    expect(wrsOf(badLkey).some((wr) => wr.sges.some((s) => s.bogusLkey))).toBe(true);
    expect(Math.max(...payloadsOf(badLkey))).toBeLessThanOrEqual(Math.min(...wrsOf(badLkey).map(held)));
    const oversize = sample('oversize', 'rdmavt');
    expect(wrsOf(oversize).some((wr) => wr.sges.some((s) => s.bogusLkey))).toBe(false);
    // Larger than what a fitting receive holds, and receives that hold less than that.
    const fitting = held(wrsOf(sample('fit', 'rdmavt'))[0] as WrSpec);
    expect(Math.max(...payloadsOf(oversize))).toBeGreaterThan(fitting);
    expect(wrsOf(oversize).some((wr) => held(wr) < fitting)).toBe(true);
  });

  it('under documented, only fitting sequences and only what the documented clauses bind', () => {
    expect(new Set(fc.sample(modeArbitrary('documented'), { numRuns: 200, seed: 3 }))).toEqual(new Set(['fit']));
    const cmds = sample('fit', 'documented');
    expect(new Set(wrsOf(cmds).map((wr) => wr.numSge))).toEqual(new Set(['list', 'above-max']));
    expect(cmds.some((c) => c.wrs?.length === 0)).toBe(false);
    expect(Math.max(...cmds.flatMap((c) => (c.limit === undefined ? [] : [c.limit])))).toBe(SRQ.max_wr);
    expect(Math.min(...cmds.flatMap((c) => (c.maxWr === undefined ? [] : [c.maxWr])))).toBe(SRQ.max_wr);
  });

  it('under rdmavt, also the reference-only inputs: negative num_sge, empty lists, limits above max_wr, shrinking', () => {
    const cmds = [...sample('fit', 'rdmavt'), ...sample('oversize', 'rdmavt')];
    expect(new Set(wrsOf(cmds).map((wr) => wr.numSge))).toEqual(new Set(['list', 'negative', 'above-max', 'zero']));
    expect(cmds.some((c) => c.wrs?.length === 0)).toBe(true);
    expect(cmds.some((c) => c.limit === SRQ.max_wr + 1)).toBe(true);
    expect(cmds.some((c) => c.maxWr !== undefined && c.maxWr < SRQ.max_wr)).toBe(true);
  });
});
