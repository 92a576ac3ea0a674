import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandArbitraries } from '../../../suites/fuzz/commands.js';
import { FuzzCommand } from '../../../suites/fuzz/report-schema.js';
import { commandOf, specOf } from '../../../suites/fuzz/sequence.js';

/** Every command the generator draws, in every mode, under both profiles. */
const drawn = (['fit', 'oversize', 'bad-lkey'] as const).flatMap((mode) =>
  (['rdmavt', 'documented'] as const).flatMap((profile) => fc.sample(fc.oneof(...commandArbitraries(mode, profile)), { numRuns: 1500, seed: 7 })),
);

describe("fuzz.json's form of a command", () => {
  it('covers every kind of command the generator draws', () => {
    expect(new Set(drawn.map((c) => specOf(c).kind))).toEqual(new Set(FuzzCommand.options.map((o) => o.shape.kind.value)));
  });

  it('through the file and back is the same command, every parameter, wr_ids beyond 2^53 included', () => {
    for (const command of drawn) {
      const json = JSON.parse(JSON.stringify(FuzzCommand.encode(specOf(command)))) as unknown;
      const back = commandOf(FuzzCommand.parse(json));
      expect(back).toEqual(command);
      expect(String(back)).toBe(String(command));
    }
    const wrs = drawn.map(specOf).flatMap((s) => (s.kind === 'post' ? s.wrs : []));
    expect(wrs.some((wr) => wr.wr_id > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
  });

  it('refuses what no command takes: a QP index, a slot or a kind beyond the generator', () => {
    expect(FuzzCommand.safeParse({ kind: 'query', qp: 4 }).success).toBe(false);
    expect(FuzzCommand.safeParse({ kind: 'send', qp: 0, sends: [{ opcode: 'SEND', length: 8, fromMr: false, numSge: 'list', imm: 0, remote: 'buffer', slot: 64 }] }).success).toBe(false);
    expect(FuzzCommand.safeParse({ kind: 'post', wrs: [{ wr_id: '-1', sges: [], numSge: 'list' }] }).success).toBe(false);
    expect(FuzzCommand.safeParse({ kind: 'reboot' }).success).toBe(false);
  });

  it('is refused for an object that is no fuzz command', () => {
    expect(() => specOf({})).toThrow(/a fuzz command fuzz.json has no form for/);
  });
});
