import { describe, expect, it } from 'vitest';
import type { Adapter, Session } from '../../../adapters/adapter.js';
import { implementations } from '../../../adapters/model/implementations.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { fuzz } from '../../../suites/fuzz/run.js';
import { modelWith } from './model-with.js';

const mutant = (name: string) => {
  const m = mutants.find((x) => x.name === name);
  if (m === undefined) throw new Error(name);
  return mutantAdapter(m);
};


/** The model, with what a libibverbs provider such as rxe does on a successful post: bad_wr set to NULL. */
const badWrNullOnSuccess = (): Adapter =>
  modelWith((session) => {
    const post = session.postSrqRecv;
    session.postSrqRecv = async (args) => {
      const r = await post(args);
      return r.rawReturn === 0 ? { ...r, badWr: 'null' } : r;
    };
  });

/** The model, recording the wr_ids of each post_srq_recv call made while sends wait (the sender's queue is not empty). */
const countingPostsWhileWaiting = (lists: number[][]): Adapter =>
  modelWith((session) => {
    let sent = 0;
    let completed = 0;
    const send = session.postSend;
    session.postSend = async (args) => {
      const r = await send(args);
      if (r.rawReturn === 0) sent += args.wrs.length;
      return r;
    };
    const poll = session.pollCq;
    session.pollCq = async (args) => {
      const r = await poll(args);
      // Send completions: a flushed one carries no opcode; receives are RECV or RECV_RDMA_WITH_IMM.
      completed += r.completions.filter((wc) => wc.opcode !== 'RECV' && wc.opcode !== 'RECV_RDMA_WITH_IMM').length;
      return r;
    };
    const post = session.postSrqRecv;
    session.postSrqRecv = async (args) => {
      if (sent > completed) lists.push(args.wrs.map((wr) => Number(wr.wr_id % 1000n)));
      return post(args);
    };
  });

describe('differential fuzzing', () => {
  it('posts receives one WR per call while sends wait, as a racing consumer could take the first WRs of a list', async () => {
    const lists: number[][] = [];
    // Under documented only QP 0 sends, so every send counted out here is one to the SRQ.
    const report = await fuzz({ adapter: countingPostsWhileWaiting(lists), reference: modelAdapter(), profile: 'documented', runs: 30, seed: 5 });
    expect(report.divergence).toBeNull();
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((wrs) => wrs.length <= 1)).toBe(true);
  });

  it('without shrinking reports the divergence as found, in no more commands than the sequence bound', async () => {
    const options = { adapter: mutant('limit-never-disarmed'), reference: modelAdapter(), profile: 'rdmavt' as const, runs: 50, seed: 3, maxCommands: 60 };
    const found = await fuzz({ ...options, shrink: false });
    const shrunk = await fuzz(options);
    expect(found.divergence).not.toBeNull();
    expect(found.divergence?.commands.split('),').length).toBeLessThanOrEqual(60);
    // Shrinking replays the failing sequence many times over: without it, fewer commands run.
    expect(found.commands).toBeLessThan(shrunk.commands);
  });

  it('finds no divergence between the model and itself', async () => {
    const report = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 40, seed: 11 });
    expect(report.divergence).toBeNull();
    expect(report.commands).toBeGreaterThan(100);
  });

  it('accepts rxe\'s check order and rounding under the documented profile', async () => {
    const rxe = implementations.rxe;
    if (rxe === undefined) throw new Error('rxe profile missing');
    const report = await fuzz({ adapter: modelAdapter(rxe, 'model:rxe'), reference: modelAdapter(), profile: 'documented', runs: 40, seed: 12 });
    expect(report.divergence).toBeNull();
  });

  it('shrinks a LIFO consumption bug to a short sequence and replays it exactly from seed and path', async () => {
    const found = await fuzz({ adapter: mutant('lifo-consumption'), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: 5 });
    expect(found.divergence?.message).toMatch(/^#\d+ send\(0; .*\): completions of QP 1 \(receiver\): /);
    expect(found.divergence?.commands.split('),').length).toBeLessThanOrEqual(3);
    const path = found.divergence?.path ?? '';
    const replayed = await fuzz({ adapter: mutant('lifo-consumption'), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: found.seed, path });
    expect(replayed.divergence?.message).toBe(found.divergence?.message);
    expect(replayed.divergence?.commands).toBe(found.divergence?.commands);
  });

  it('goes on from a later run of the same seed (a new boot after a known fatal finding): the same runs, the same divergence and path', async () => {
    const all = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 12, seed: 77 });
    const first = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 5, seed: 77 });
    const rest = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 12, seed: 77, fromRun: 6 });
    expect([first.runs, rest.runs]).toEqual([5, 7]);
    expect(first.commands + rest.commands).toBe(all.commands);
    // A divergence met after the runs skipped is the seed's own run: its path replays it from the seed.
    const found = await fuzz({ adapter: mutant('limit-never-disarmed'), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: 9, shrink: false });
    // fast-check's path starts with the run's index (from 0): seed 9 meets it in its third run
    const run = Number(found.divergence?.path.split(/[:@]/)[0]) + 1;
    expect(run).toBe(3);
    const later = await fuzz({ adapter: mutant('limit-never-disarmed'), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: 9, shrink: false, fromRun: run });
    expect(later.divergence?.path).toBe(found.divergence?.path);
    expect(later.divergence?.message).toBe(found.divergence?.message);
    expect(later.runs).toBe(1);
    const past = await fuzz({ adapter: mutant('limit-never-disarmed'), reference: modelAdapter(), profile: 'rdmavt', runs: run, seed: 9, shrink: false, fromRun: run + 1 });
    expect([past.runs, past.commands, past.divergence]).toEqual([0, 0, null]);
  });

  it('catches a limit event that is never disarmed', async () => {
    const found = await fuzz({ adapter: mutant('limit-never-disarmed'), reference: modelAdapter(), profile: 'rdmavt', runs: 200, seed: 3 });
    // Seen as a second event, or as a resize below the limit that the still armed SRQ refuses.
    expect(found.divergence?.message).toMatch(/SRQ_LIMIT_REACHED|srq_limit|modify_srq MAX_WR/);
  });

  it('runs most commands on QPs in RTS, and says how many', async () => {
    const rdmavt = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: 13 });
    // Not the 0.8 of the four-command generator: modify, destroy and responder errors now move the
    // pair out of RTS too (mostly they go to the QPs connected to themselves, see commandArbitraries).
    expect(rdmavt.liveShare).toBeGreaterThanOrEqual(0.6);
    // Oversize and bad-lkey sequences move the pair to ERR, and the share counts it.
    expect(rdmavt.liveShare).toBeLessThan(1);
    const documented = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'documented', runs: 30, seed: 13 });
    expect(documented.liveShare).toBe(1);
  });

  it('calls a model against the model a self-check, anything else a conformance run', async () => {
    const model = modelAdapter();
    const info = await model.info();
    const driver: Adapter = { ...model, info: async () => ({ ...info, adapter: 'ibverbs', implementation: 'rdma-core rxe provider' }) };
    const rxe = implementations.rxe;
    if (rxe === undefined) throw new Error('rxe profile missing');
    const kinds = await Promise.all(
      [model, modelAdapter(rxe, 'model:rxe'), mutant('lifo-consumption'), driver].map(async (adapter) => (await fuzz({ adapter, reference: modelAdapter(), profile: 'documented', runs: 1, seed: 1, maxCommands: 5 })).kind),
    );
    expect(kinds).toEqual(['self-check', 'self-check', 'self-check', 'conformance']);
  });

  it('compares bad_wr of a successful post only under rdmavt, of a failed one under both profiles', async () => {
    const documented = await fuzz({ adapter: badWrNullOnSuccess(), reference: modelAdapter(), profile: 'documented', runs: 40, seed: 14 });
    expect(documented.divergence).toBeNull();
    const rdmavt = await fuzz({ adapter: badWrNullOnSuccess(), reference: modelAdapter(), profile: 'rdmavt', runs: 40, seed: 14 });
    expect(rdmavt.divergence?.message).toMatch(/^#\d+ post\(.*\): post_srq_recv .*"badWr":"null"/);
    const onePast = await fuzz({ adapter: mutant('bad-wr-one-past'), reference: modelAdapter(), profile: 'documented', runs: 40, seed: 14 });
    expect(onePast.divergence?.message).toMatch(/^#\d+ post\(.*\): post_srq_recv .*"ok":false,"badWr"/);
  });
});
