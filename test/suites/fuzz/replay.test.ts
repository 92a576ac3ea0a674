import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/adapter.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import type { FuzzCommand, SendSpec, WrSpec } from '../../../suites/fuzz/report-schema.js';
import { fuzz, replay } from '../../../suites/fuzz/run.js';
import { RNR_TIMER_MS, asDevice, rnrTimer, timedAdapter } from './rnr-timer.js';

const fits = (wr_id: bigint): WrSpec => ({ wr_id, sges: [{ slot: 0, length: 64, bogusLkey: false }], numSge: 'list' });
const send64: SendSpec = { opcode: 'SEND', length: 64, fromMr: false, numSge: 'list', imm: 0, remote: 'buffer', slot: 0 };

/** Issue 43's example: the SRQ resized to 1, sends waiting on RNR, then a list of receives posted. */
const timerDependent: FuzzCommand[] = [
  { kind: 'resize', maxWr: 1 },
  { kind: 'send', qp: 0, sends: [send64, send64, send64] },
  { kind: 'post', wrs: [fits(1n), fits(2n), fits(3n)] },
];

const replayOn = (adapter: Adapter, ran: readonly FuzzCommand[]) => replay({ adapter, reference: modelAdapter(), profile: 'rdmavt', ran, seed: 0, path: '0' });

describe('an implementation whose sends waiting on RNR take a newly posted receive only when the RNR timer fires', () => {
  it('is no divergence: after each post the drain waits for what the post allowed', async () => {
    const started = performance.now();
    const report = await replayOn(timedAdapter(), timerDependent);
    expect(report.divergence).toBeNull();
    expect(report.commands).toBe(3);
    // Each of the three receives was taken by a send whose timer ran out first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(3 * RNR_TIMER_MS);
  });

  it('diverges when the drain gives up before the timer fires (the test has teeth)', async () => {
    const report = await replayOn(asDevice(rnrTimer(rdmavt, RNR_TIMER_MS), 'model', 1), timerDependent);
    expect(report.divergence?.message).toMatch(/^#3 post\(.*\) WR 1: completions of QP \d \(\w+\): /);
  });

  it('random sequences on it find no divergence', async () => {
    const report = await fuzz({ adapter: timedAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 12, seed: 43, maxCommands: 60 });
    expect(report.divergence).toBeNull();
    expect(report.commands).toBeGreaterThan(100);
  }, 120_000);
});

describe('a divergence replays from the sequence fuzz.json records, to the same message', () => {
  // A genuine divergence (a mutant: the SRQ consumed newest first) on the implementation with the timer.
  const lifo = () => timedAdapter('lifo-consumption');
  const options = { reference: modelAdapter(), profile: 'rdmavt' as const, runs: 100, seed: 5, maxCommands: 60 };

  it('after a shrink cut short: the sequence that last failed is the one recorded', async () => {
    const found = await fuzz({ ...options, adapter: lifo(), shrinkMs: 1 });
    expect(found.shrinking).toBe('stopped');
    const { divergence } = found;
    if (divergence === null) throw new Error('no divergence found');
    expect(divergence.ran.length).toBeGreaterThan(0);
    // The command the message names is one of those the replay runs.
    expect(Number(/^#(\d+) /.exec(divergence.message)?.[1])).toBeLessThanOrEqual(divergence.ran.length);
    const again = await replayOn(lifo(), divergence.ran);
    expect(again.divergence?.message).toBe(divergence.message);
    expect(again.divergence?.ran).toEqual(divergence.ran);
  }, 120_000);

  it('after a whole shrink, with one command per batch too', async () => {
    const found = await fuzz({ ...options, adapter: lifo() });
    expect(found.shrinking).toBe('done');
    const ran = found.divergence?.ran ?? [];
    expect((await replayOn(lifo(), ran)).divergence?.message).toBe(found.divergence?.message);
    const alone = await replay({ adapter: lifo(), reference: modelAdapter(), profile: 'rdmavt', ran, seed: 0, path: '0', chunk: 1 });
    expect(alone.divergence?.message).toBe(found.divergence?.message);
  }, 120_000);

  it('a replay on an implementation without the bug shows none', async () => {
    const found = await fuzz({ ...options, adapter: lifo(), shrinkMs: 1 });
    expect((await replayOn(timedAdapter(), found.divergence?.ran ?? [])).divergence).toBeNull();
  }, 120_000);
});
