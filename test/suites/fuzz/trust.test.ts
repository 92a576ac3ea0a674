import { describe, expect, it } from 'vitest';
import type { Adapter, CaseWatch, Session } from '../../../adapters/adapter.js';
import type { AsyncEvent } from '../../../spec/verbs/events.js';
import type { Behaviour } from '../../../adapters/model/behaviour.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { CycleMr, Post, Resize, SRQ, Send, type SendSpec, type WrSpec } from '../../../suites/fuzz/commands.js';
import { Divergence } from '../../../suites/fuzz/compare.js';
import { fuzz, replay } from '../../../suites/fuzz/run.js';
import { modelWith } from './model-with.js';
import { commandOf } from '../../../suites/fuzz/sequence.js';
import { MR_LENGTH, openSide } from '../../../suites/fuzz/side.js';
import { KernelFinding, Unobservable, World } from '../../../suites/fuzz/world.js';
import { executeSteps } from '../../../adapters/batch.js';
import { REFUSED } from '../../../adapters/kernel/control.js';
import { ImplementationCrash } from '../../../spec/errors.js';

/**
 * rdmavt whose RNR timer fires late: a receive queue that holds a WR is seen empty by the next
 * `misses` attempts of a waiting send (each verb is one attempt in the model), as when
 * rvt_rc_rnr_retry runs well after the post that made the WR available.
 */
function lateRnr(misses: number): Behaviour {
  let missed = 0;
  return {
    ...rdmavt,
    name: 'late-rnr',
    description: 'rdmavt whose RNR timer fires late',
    takeRecvWqe: (rq) => {
      if (rq.ring.count > 0 && missed < misses) {
        missed++;
        return undefined;
      }
      missed = 0;
      return rdmavt.takeRecvWqe(rq);
    },
  };
}

/** A model adapter as a device would be: a completion may come after the call that caused it, up to `waitMs` later. */
const slowToComplete = (adapter: Adapter, waitMs: number): Adapter => ({
  ...adapter,
  info: async () => {
    const { quietMs: _synchronous, ...info } = await adapter.info();
    return { ...info, completionWaitMs: waitMs };
  },
});

const fits = (wr_id: bigint): WrSpec => ({ wr_id, sges: [{ slot: 0, length: 64, bogusLkey: false }], numSge: 'list' });
const send64: SendSpec = { opcode: 'SEND', length: 64, fromMr: false, numSge: 'list', imm: 0, remote: 'buffer', slot: 0 };

/** The example of issue 43: the SRQ resized to 1, sends waiting on RNR, then a list of receives posted. */
const timerDependent = () => [new Resize(1), new Send(0, [send64, send64, send64]), new Post([fits(1n), fits(2n), fits(3n)])];

/** A drain that looks once, and no second wait when it comes back short: the oracle waits for nothing. */
const noWaits = (world: World) => {
  world.real.waitMs = 0;
  world.options.lateWaitMs = 0;
};

async function runSequence(adapter: Adapter, commands: { run(m: object, w: World): void | Promise<void> }[], edit: (world: World) => void = () => undefined, chunk = 16): Promise<void> {
  const real = await openSide(adapter, SRQ);
  const ref = await openSide(modelAdapter(), { max_wr: real.attr.max_wr, max_sge: real.attr.max_sge }, real.cqes);
  const world = new World(real, ref, { profile: 'rdmavt', resize: true, chunk, commandTimeoutMs: 5000, watch: adapter.watch });
  edit(world);
  for (const command of commands) await command.run({}, world);
  await world.finish();
}

describe('verdicts that do not depend on timing', () => {
  it('a send waiting on RNR whose timer fires early or late takes each newly posted WR without a divergence', async () => {
    await expect(runSequence(modelAdapter(), timerDependent())).resolves.toBeUndefined();
    await expect(runSequence(slowToComplete(modelAdapter(lateRnr(2), 'late'), 2000), timerDependent())).resolves.toBeUndefined();
  });

  it('the same sequence diverges when the oracle does not wait for the consumption (the test has teeth)', async () => {
    const late = slowToComplete(modelAdapter(lateRnr(2), 'late'), 2000);
    await expect(runSequence(late, timerDependent(), noWaits)).rejects.toThrow(Divergence);
  });

  it('random sequences against a late RNR timer find no divergence', async () => {
    // Under documented only QP 0 sends, and its retries are infinite, as the late fake assumes.
    // Each late consumption costs the drain a few polls a millisecond apart: few, short sequences.
    const report = await fuzz({ adapter: slowToComplete(modelAdapter(lateRnr(2), 'late'), 2000), reference: modelAdapter(), profile: 'documented', runs: 10, seed: 21, maxCommands: 60 });
    expect(report.divergence).toBeNull();
  }, 60_000);
});

describe('a completion that comes after the drain gave up', () => {
  // The drain looks once (waitMs 0) and the RNR timer fires late: the first look finds nothing.
  const late = (edit: (world: World) => void) => (world: World) => {
    world.real.waitMs = 0;
    edit(world);
  };

  it('is waited for again before it counts: taken late, it is no divergence and the sequence goes on', async () => {
    await expect(runSequence(modelAdapter(lateRnr(2), 'late'), timerDependent(), late((w) => (w.options.lateWaitMs = 2000)), 1)).resolves.toBeUndefined();
  });

  it('in the middle of a batch, the commands after it say nothing: the run is cut short, not a divergence', async () => {
    const run = runSequence(modelAdapter(lateRnr(2), 'late'), [...timerDependent(), new Send(0, [send64])], late((w) => (w.options.lateWaitMs = 2000)), 16);
    await expect(run).rejects.toThrow(Unobservable);
    await expect(run).rejects.toThrow(/came after the drain's 0 ms/);
  });

  it('one that never comes is a divergence, saying how long was waited', async () => {
    await expect(runSequence(modelAdapter(lateRnr(Infinity), 'never'), timerDependent(), late((w) => (w.options.lateWaitMs = 50)), 1)).rejects.toThrow(/completions of QP 0 .*50 ms more were waited/);
  });

  it('a lockup the kernel prints while the late drain waits is a finding, not a divergence', async () => {
    // The watch sees a stall once a drain has waited its late wait: a CPU stuck in the driver.
    const model = modelAdapter(lateRnr(Infinity), 'stuck');
    let waited = false;
    const adapter: Adapter = {
      ...model,
      watch: { start: () => ({ end: () => (waited ? { problem: 'rcu stall', lines: ['rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:'], fatal: false } : undefined) }) },
      open: async () => {
        const session = await model.open();
        const run = executeSteps;
        session.runBatch = async (steps) => {
          const result = await run({ ...session, runBatch: undefined }, steps);
          waited ||= steps.some((s) => s.call === 'drainCq' && s.args.waitMs === 50);
          return result;
        };
        return session;
      },
    };
    await expect(runSequence(adapter, timerDependent(), late((w) => (w.options.lateWaitMs = 50)), 1)).rejects.toThrow(KernelFinding);
  });
});

/**
 * The model with a kernel log: a post_send of a negative num_sge "oopses" it (as rxe did), or
 * "warns" (as rdmavt's FORTIFY WARN_ONCE at qp.c:2041: the first such post of a boot only), seen
 * by the watch at the end of the span; `hang`: that post never returns instead.
 */
function oopsing(options: { fatal: boolean; hang?: boolean; crash?: boolean }): { adapter: Adapter; opens: () => number } {
  const model = modelAdapter();
  let splat = false;
  let warned = false;
  let opens = 0;
  const watch: CaseWatch = {
    start: () => ({
      end: () => {
        if (!splat) return undefined;
        splat = false;
        return { problem: options.fatal ? 'kernel oops' : 'kernel warning', lines: ['BUG: unable to handle page fault', 'RIP: rvt_post_send'], fatal: options.fatal };
      },
    }),
  };
  const adapter: Adapter = {
    ...model,
    watch,
    open: async () => {
      opens++;
      const session: Session = await model.open();
      const post = session.postSend;
      session.postSend = (args) => {
        if (!args.wrs.some((wr) => wr.num_sge < 0)) return post(args);
        if (options.fatal || !warned) splat = true;
        warned = true;
        return options.hang === true ? new Promise(() => undefined) : post(args);
      };
      // The worker killed in its system call, or the VM gone under the relay: the batch never
      // answers, and the log may say nothing.
      if (options.crash === true) {
        const oneByOne: Session = { ...session, runBatch: undefined };
        session.runBatch = (steps) =>
          steps.some((step) => step.call === 'postSend' && step.args.wrs.some((wr) => wr.num_sge < 0)) ? Promise.reject(new ImplementationCrash('the kernel worker (pid 7) exited with status 70 during runBatch')) : executeSteps(oneByOne, steps);
      }
      return session;
    },
  };
  return { adapter, opens: () => opens };
}

/** The model, each verb answered `delayMs` later; `silentFrom`: from that verb on, never. */
function slow(adapter: Adapter, delayMs: number, silentFrom?: keyof Session): Adapter {
  return {
    ...adapter,
    open: async () => {
      const session = await adapter.open();
      for (const name of Object.keys(session) as (keyof Session)[]) {
        const call = session[name] as (args: unknown) => Promise<unknown>;
        (session as Record<string, unknown>)[name] = async (args: unknown) => {
          if (name === silentFrom) return new Promise(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          return call(args);
        };
      }
      return session;
    },
  };
}

/** The model, its async events delivered by `deliver` from what each read would have returned. */
function eventsEdited(deliver: (events: AsyncEvent[], held: AsyncEvent[]) => AsyncEvent[]): Adapter {
  const model = modelAdapter();
  return {
    ...model,
    open: async () => {
      const session = await model.open();
      const read = session.getAsyncEvents;
      const held: AsyncEvent[] = [];
      session.getAsyncEvents = async (args) => ({ events: deliver((await read(args)).events, held) });
      return session;
    },
  };
}

/** The model, each event delivered `lagMs` after a read first found it, its completion wait `waitMs`. */
function eventsLate(lagMs: number, waitMs: number): Adapter {
  const model = modelAdapter();
  return {
    ...model,
    info: async () => ({ ...(await model.info()), completionWaitMs: waitMs }),
    open: async () => {
      const session = await model.open();
      const read = session.getAsyncEvents;
      const held: { event: AsyncEvent; at: number }[] = [];
      session.getAsyncEvents = async (args) => {
        const now = performance.now();
        for (const event of (await read(args)).events) held.push({ event, at: now });
        const due = held.filter((h) => now - h.at >= lagMs);
        held.splice(0, due.length);
        return { events: due.map((h) => h.event) };
      };
      return session;
    },
  };
}

describe("the drain waits the model's completion wait", () => {
  // QP 2 sends to itself through the empty SRQ with rnr_retry 2: the model spends one retry per
  // verb, so the implementation's drain must poll until the reference's RNR_RETRY_EXC_ERR comes.
  const finiteRetries = () => [new Send(2, [send64])];

  it("a model side's drain waits its adapter's completion wait, and the finite retries run out alike", async () => {
    const side = await openSide(modelAdapter(), SRQ);
    expect(side.waitMs).toBe((await modelAdapter().info()).completionWaitMs);
    await side.session.close();
    await expect(runSequence(modelAdapter(), finiteRetries())).resolves.toBeUndefined();
  });

  it('a drain that only looks once misses the retries running out (the test has teeth)', async () => {
    await expect(runSequence(modelAdapter(), finiteRetries(), noWaits)).rejects.toThrow(/RNR_RETRY_EXC_ERR/);
  });
});

describe('async events that come late', () => {
  it('an event delivered one read after the completion that came with it is no divergence', async () => {
    // Each read returns what the read before found: every event a command late.
    const late = eventsEdited((events, held) => held.splice(0, held.length, ...events));
    const report = await fuzz({ adapter: late, reference: modelAdapter(), profile: 'rdmavt', runs: 60, seed: 41 });
    expect(report.divergence).toBeNull();
  });

  it('an event delivered some reads later, within the completion wait, is no divergence: the next read may come microseconds after, in the same batch', async () => {
    // fuzz --seed 15120502 met rvt_sim0 raising QP_LAST_WQE_REACHED after the next command's read,
    // which came in the same batch, the work queue that raises it on the other CPU.
    const report = await fuzz({ adapter: eventsLate(20, 200), reference: modelAdapter(), profile: 'rdmavt', runs: 25, seed: 41 });
    expect(report.divergence).toBeNull();
  });

  it('the same events owed past the completion wait are a divergence (the test has teeth)', async () => {
    const report = await fuzz({ adapter: eventsLate(20, 0), reference: modelAdapter(), profile: 'rdmavt', runs: 25, seed: 41 });
    expect(report.divergence?.message).toMatch(/async events/);
  });

  it('an event never delivered is a divergence', async () => {
    const lost = eventsEdited((events) => events.filter((e) => e.event_type !== 'QP_LAST_WQE_REACHED'));
    const report = await fuzz({ adapter: lost, reference: modelAdapter(), profile: 'rdmavt', runs: 60, seed: 41 });
    expect(report.divergence?.message).toMatch(/async events.*QP_LAST_WQE_REACHED/);
  });
});

describe('the kernel log and a per-command timeout', () => {
  it('an oops is a fatal finding: the run stops where it was, unshrunk, with the running sequence and the log', async () => {
    const { adapter, opens } = oopsing({ fatal: true });
    const report = await fuzz({ adapter, reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 5 });
    expect(report.finding).toMatchObject({ fatal: true, lines: ['BUG: unable to handle page fault', 'RIP: rvt_post_send'] });
    expect(report.finding?.problem).toMatch(/^kernel oops during #\d+ /);
    expect(report.finding?.sequence.some((c) => /\/negative/.test(c))).toBe(true);
    expect(report.shrinking).toBe('none');
    // No shrink step opened the device again: the run that found it was the last.
    expect(opens()).toBe(report.runs);
  });

  it('a warning that fires once per boot is reported as found, at its batch, never shrunk against the device', async () => {
    const { adapter, opens } = oopsing({ fatal: false });
    const report = await fuzz({ adapter, reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 5 });
    expect(report.finding).toMatchObject({ fatal: false, problem: expect.stringMatching(/^kernel warning during #\d+ /) });
    expect(report.shrinking).toBe('none');
    // Shrinking would replay sequences on a device whose WARN_ONCE cannot fire again: no step opened it.
    expect(opens()).toBe(report.runs);
    const { sequence, batch } = report.finding ?? { sequence: [], batch: 0 };
    // The sequence ends with the batch that raised it, and the raising send is in that batch.
    expect(batch).toBeGreaterThanOrEqual(1);
    expect(sequence.slice(-batch).some((c) => /^send\(\d; [^)]*\/negative/.test(c))).toBe(true);
    // One command per batch: the finding is at the very command that raised it.
    const alone = await fuzz({ adapter: oopsing({ fatal: false }).adapter, reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 5, chunk: 1 });
    expect(alone.finding?.batch).toBe(1);
    expect(alone.finding?.sequence.at(-1)).toMatch(/^send\(\d; [^)]*\/negative[^)]*\)$/);
    expect(alone.finding?.problem).toContain(`#${alone.finding?.sequence.length} send(`);
  });

  it("records the finding's sequence command by command, and a fresh boot's replay of it shows the same finding", async () => {
    const report = await fuzz({ adapter: oopsing({ fatal: false }).adapter, reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 5 });
    const ran = report.divergence?.ran ?? [];
    expect(ran.map((spec) => String(commandOf(spec)))).toEqual(report.finding?.sequence);
    const again = await replay({ adapter: oopsing({ fatal: false }).adapter, reference: modelAdapter(), profile: 'rdmavt', ran, seed: report.seed, path: report.divergence?.path ?? '' });
    expect(again.finding?.problem).toBe(report.finding?.problem);
    expect(again.divergence?.message).toBe(report.divergence?.message);
  });

  it("a command that never answers is a fatal finding after its batch's budget, not a command's budget times the batch", async () => {
    const { adapter } = oopsing({ fatal: true, hang: true });
    const report = await fuzz({ adapter, reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 5, commandTimeoutMs: 300 });
    expect(report.finding?.fatal).toBe(true);
    expect(report.finding?.problem).toMatch(/^no answer within \d+ ms during #\d+ .*; the kernel log: kernel oops/);
    // 300 ms plus the drains' 5 ms waits, where 16 commands' worth was 4.8 s.
    expect(Number(/within (\d+) ms/.exec(report.finding?.problem ?? '')?.[1])).toBeLessThan(600);
  });
});

describe("the implementation's process dying", () => {
  it('under a batch is a fatal finding with the sequence up to it, never a divergence', async () => {
    const report = await fuzz({ adapter: oopsing({ fatal: false, crash: true }).adapter, reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 5 });
    expect(report.shrinking).toBe('none');
    expect(report.finding).toMatchObject({ fatal: true, lines: [] });
    expect(report.finding?.problem).toMatch(/^the kernel worker \(pid 7\) exited with status 70 during runBatch during #\d+ /);
    expect(report.finding?.sequence.some((c) => /\/negative/.test(c))).toBe(true);
  });

  it('while its QPs are made is a fatal finding too', async () => {
    const model = modelAdapter();
    const dying: Adapter = {
      ...model,
      open: async () => {
        const session = await model.open();
        return new Proxy(session, { get: (target, key, receiver) => (key === 'runBatch' || key === 'createQp' ? () => Promise.reject(new ImplementationCrash('the kernel worker (pid 8) was killed by SIGKILL')) : (Reflect.get(target, key, receiver) as unknown)) });
      },
    };
    const report = await fuzz({ adapter: dying, reference: modelAdapter(), profile: 'documented', runs: 3, seed: 3 });
    expect(report.finding).toMatchObject({ fatal: true, sequence: [] });
    expect(report.finding?.problem).toBe("the kernel worker (pid 8) was killed by SIGKILL while opening a run's PD, SRQ, CQs, QPs and MRs");
  });
});

describe('a slow or silent implementation: the fuzzer always progresses, reports, or times out with a result', () => {
  it('a side that never answers while its QPs are made is a fatal finding after the setup timeout', async () => {
    const report = await fuzz({ adapter: slow(modelAdapter(), 0, 'createQp'), reference: modelAdapter(), profile: 'documented', runs: 10, seed: 3, setupTimeoutMs: 300 });
    expect(report.finding).toMatchObject({ fatal: true, sequence: [] });
    expect(report.finding?.problem).toMatch(/^no answer within 300 ms while opening a run's PD, SRQ, CQs, QPs and MRs/);
  });

  it('a slow side gets progress lines while its runs go, and a divergence on it is shrunk only as long as allowed', async () => {
    const lines: string[] = [];
    const m = mutants.find((x) => x.name === 'limit-never-raised');
    if (m === undefined) throw new Error('no mutant limit-never-raised');
    const report = await fuzz({
      adapter: slow(mutantAdapter(m), 1, undefined),
      reference: modelAdapter(),
      profile: 'documented',
      runs: 100,
      seed: 3,
      shrinkMs: 1000,
      progressMs: 200,
      onProgress: (line) => lines.push(line),
    });
    expect(report.divergence).not.toBeNull();
    expect(lines.some((l) => /^run \d+ of 100: \d+ commands, \d+\/s$/.test(l))).toBe(true);
    expect(lines.some((l) => /^run \d+: a divergence at command #\d+; shrinking it \(for at most 1 s\)$/.test(l))).toBe(true);
    expect(report.shrinking).toBe('stopped');
  }, 60_000);
});

/** The model, except that its side refuses every RDMA WRITE with `message` before the verb, as rvtc refuses an RDMA no MR of its session covers. */
function refusingRdmaWrites(message: string): Adapter {
  const base = modelAdapter();
  return {
    ...base,
    async open() {
      const session = await base.open();
      return new Proxy(session, {
        get(target, key, receiver) {
          if (key !== 'postSend') return Reflect.get(target, key, receiver) as unknown;
          return async (args: Parameters<Session['postSend']>[0]) => {
            if (args.wrs.some((wr) => wr.opcode.startsWith('RDMA_WRITE'))) throw new Error(message);
            return target.postSend(args);
          };
        },
      });
    },
  };
}

describe('a step the adapter would not carry', () => {
  it('ends its run as not observable there, never a divergence, and says why', async () => {
    const refused = `${REFUSED} WR 0: its remote range lies outside every MR of this session`;
    const report = await fuzz({ adapter: refusingRdmaWrites(refused), reference: modelAdapter(), profile: 'rdmavt', runs: 30, seed: 5, maxCommands: 60 });
    expect(report.divergence).toBeNull();
    expect(report.cutShort).toEqual([{ reason: `postSend: ${refused}`, runs: expect.any(Number) }]);
  }, 60_000);

  it('any other failure of a step is a divergence (the test has teeth)', async () => {
    const report = await fuzz({ adapter: refusingRdmaWrites('the device failed the post'), reference: modelAdapter(), profile: 'rdmavt', runs: 30, seed: 5, maxCommands: 60, shrink: false });
    expect(report.divergence?.message).toMatch(/the device failed the post/);
    expect(report.cutShort).toEqual([]);
  }, 60_000);
});

/** The model, its second MR (MR_LENGTH bytes) answered as a DMA MR is on rdmavt (lkey 0), the key mapped back on each post. */
function dmaMrs(): Adapter {
  const base = modelAdapter();
  return {
    ...base,
    async open() {
      const session = await base.open();
      let lkey = 0;
      const unmap = <T extends { sg_list: { lkey: number }[] }>(wr: T): T => ({ ...wr, sg_list: wr.sg_list.map((sge) => (sge.lkey === 0 ? { ...sge, lkey } : sge)) });
      return new Proxy(session, {
        get(target, key, receiver) {
          if (key === 'regMr')
            return async (args: Parameters<Session['regMr']>[0]) => {
              const r = await target.regMr(args);
              if (args.length !== MR_LENGTH) return r;
              lkey = r.lkey;
              return { ...r, lkey: 0 };
            };
          if (key === 'postSend') return async (args: Parameters<Session['postSend']>[0]) => target.postSend({ ...args, wrs: args.wrs.map(unmap) });
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    },
  };
}

describe("an adapter whose MRs are DMA MRs (rvtc's)", () => {
  const fromMr: SendSpec = { ...send64, length: 7, fromMr: true };
  const rdmaToMr: SendSpec = { ...send64, opcode: 'RDMA_READ', length: 32, remote: 'mr', slot: 60 };

  it('leaves cycleMr out, counted with why, never a divergence (a dereg there invalidates no key and cleans no QP)', async () => {
    let skipped = new Map<string, number>();
    const edit = (world: World) => void (skipped = world.skipped);
    await expect(runSequence(dmaMrs(), [new Send(3, [fromMr, rdmaToMr]), new CycleMr(), new Send(0, [fromMr])], edit)).resolves.toBeUndefined();
    expect([...skipped]).toEqual([[expect.stringMatching(/^cycleMr: the adapter's MRs are DMA MRs \(lkey 0\)/), 1]]);
    const report = await fuzz({ adapter: dmaMrs(), reference: modelAdapter(), profile: 'rdmavt', runs: 20, seed: 5, maxCommands: 60 });
    expect(report.skipped).toEqual([{ reason: expect.stringMatching(/^cycleMr: /), commands: expect.any(Number) }]);
  }, 60_000);

  it('runs it on a user MR, where a dereg under a queued WR is compared as always', async () => {
    let skipped = new Map<string, number>();
    await expect(runSequence(modelAdapter(), [new Send(0, [fromMr]), new CycleMr()], (world) => void (skipped = world.skipped))).resolves.toBeUndefined();
    expect(skipped.size).toBe(0);
  });
});

describe('a small CQ full while a finite RNR retry runs', () => {
  // QP 2 sends to itself through the SRQ (rnr_retry 2, a CQ of 4): two sends take the two WRs
  // (four completions: the CQ is full), the third waits on RNR and its retries run out.
  const racing = () => [new Post([fits(1n), fits(2n)]), new Send(2, [send64, send64, send64])];

  it('ends the run as not observable on a device: whether the last retry overflows the CQ depends on when the drain polls', async () => {
    await expect(runSequence(modelAdapter(), racing())).rejects.toThrow(/QP 2's CQ was full while its finite RNR retries ran/);
  });

  it("is compared against a model, whose RNR timer counts verbs as the reference's does", async () => {
    await expect(runSequence(modelAdapter(), racing(), (world) => void (world.options.modelClock = true))).resolves.toBeUndefined();
    // and the fuzzer tells a model by its adapter: model against model, no run ends there
    const report = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 200, seed: 7 });
    expect(report.cutShort.filter((c) => /CQ was full/.test(c.reason))).toEqual([]);
  });

  it('is compared as always when the CQ has room (two sends, no retry left waiting)', async () => {
    await expect(runSequence(modelAdapter(), [new Post([fits(1n), fits(2n)]), new Send(2, [send64, send64])])).resolves.toBeUndefined();
  });
});


/** The model, its `n`-th session's open (from 1) and every later one refused as a transport would refuse it. */
function refusingOpenFrom(n: number, adapter: Adapter = modelAdapter()): Adapter {
  let opened = 0;
  return { ...adapter, open: async () => (++opened >= n ? Promise.reject(Object.assign(new Error('EINVAL: open /dev/rvtc in the VM'), { code: 'EINVAL' })) : adapter.open()) };
}

describe('a harness or setup problem is no verdict on the implementation', () => {
  it("a run's sides that cannot be opened stop the fuzz with a harness error, never a divergence; the runs before were compared", async () => {
    const report = await fuzz({ adapter: refusingOpenFrom(4), reference: modelAdapter(), profile: 'rdmavt', runs: 20, seed: 3 });
    expect(report.divergence).toBeNull();
    expect(report.finding).toBeNull();
    // three runs opened a session each; the fourth could not, and is the last counted
    expect(report.harnessError).toEqual({ run: 4, message: "opening the run's PD, SRQ, CQs, QPs and MRs: EINVAL: open /dev/rvtc in the VM" });
    expect(report.runs).toBe(4);
  });

  it('a batch whose transport fails in the middle of a run (no step answered, no crash) is one too', async () => {
    let sessions = 0;
    const broken = modelWith((session) => {
      if (++sessions !== 2) return;
      // Batched as a device's session is (oopsing above); the second run's sixth batch is one of its commands'.
      const oneByOne: Session = { ...session, runBatch: undefined };
      let batches = 0;
      session.runBatch = (steps) => (++batches === 6 ? Promise.reject(Object.assign(new Error('EIO: write /dev/rvtc in the VM'), { code: 'EIO' })) : executeSteps(oneByOne, steps));
    });
    // A kernel log watch that sees nothing: the world calls the side as a device's, batch by batch.
    const watched: Adapter = { ...broken, watch: { start: () => ({ end: () => undefined }) } };
    const report = await fuzz({ adapter: watched, reference: modelAdapter(), profile: 'rdmavt', runs: 20, seed: 3 });
    expect(report.divergence).toBeNull();
    expect(report.harnessError).toMatchObject({ run: 2, message: expect.stringMatching(/^command #\d+: EIO: write \/dev\/rvtc in the VM$/) });
  });

  it('a divergence found before it stays the verdict, its shrinking cut short where the harness failed', async () => {
    const m = mutants.find((x) => x.name === 'lifo-consumption');
    if (m === undefined) throw new Error('no mutant lifo-consumption');
    // seed 5 diverges in its first run (one session); every shrink step opens one more
    const report = await fuzz({ adapter: refusingOpenFrom(3, mutantAdapter(m)), reference: modelAdapter(), profile: 'rdmavt', runs: 20, seed: 5 });
    expect(report.divergence?.message).toMatch(/^#\d+ /);
    expect(report.shrinking).toBe('stopped');
    expect(report.harnessError?.message).toMatch(/^opening the run's .*EINVAL/);
  });

  it('a replay whose sides cannot be opened says so, and shows no divergence', async () => {
    const report = await replay({ adapter: refusingOpenFrom(1), reference: modelAdapter(), profile: 'rdmavt', ran: [{ kind: 'armLimit', limit: 3 }], seed: 1, path: '0' });
    expect([report.divergence, report.harnessError?.run]).toEqual([null, 1]);
  });
});
