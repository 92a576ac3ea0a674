import { Placement, RECORD_WIDTH, RecordKind } from '../../adapters/concurrent.js';
import { toWire } from '../../adapters/remote/wire.js';
import type { Adapter, AdapterInfo, Session } from '../../adapters/adapter.js';
import type { CallName } from '../../adapters/calls.js';
import { referenceModel } from '../helpers.js';

type Override = (real: (args: never) => Promise<unknown>) => (args: never) => Promise<unknown>;

/**
 * The reference model with some calls replaced and its info edited: each lie an adapter (or a
 * misconfigured device) can tell the harness. Unit-test fakes only: the gate must see through them.
 */
function lying(name: string, overrides: Partial<Record<CallName, Override>>, info: (real: AdapterInfo) => AdapterInfo = (i) => i): Adapter {
  const model = referenceModel();
  return {
    ...model,
    info: async () => ({ ...info(await model.info()), adapter: name }),
    async open(): Promise<Session> {
      const session = await model.open();
      const replaced = Object.fromEntries(
        Object.entries(overrides).map(([call, override]) => [call, override((session[call as CallName] as (args: never) => Promise<unknown>).bind(session))]),
      );
      return { ...session, ...replaced, close: () => session.close() } as Session;
    },
  };
}

/** Declares every capability, including SRQs, but every SRQ create fails with EOPNOTSUPP. */
export const claimsSrqsItLacks = () =>
  lying('claims-srqs', { createSrq: () => async () => ({ rawReturn: -95, srq: null, attr: null }) }, (i) => ({
    ...i,
    capabilities: ['srq', 'srq_resize', 'srq_limit_event', 'rc_loopback', 'ud', 'async_events', 'mr_data', 'post_contexts'],
  }));

/** Every case's setup fails on its first verb: no protection domain can be allocated, by a case or by the concurrent engine's own rig. */
export const failsInSetup = () =>
  lying('fails-in-setup', { allocPd: () => async () => ({ rawReturn: -12, pd: null }), runConcurrent: () => async () => ({ err: 12, stage: 'allocPd', records: [] }) });

/** A history's records each through `edit`, or dropped when it returns undefined. */
export const perRecord = (edit: (record: number[]) => number[] | undefined) => (records: readonly number[]) => {
  const out: number[] = [];
  for (let i = 0; i < records.length; i += RECORD_WIDTH) out.push(...(edit(records.slice(i, i + RECORD_WIDTH)) ?? []));
  return out;
};

/**
 * A concurrent history without what would let some of its clauses fail: no refused post (a refused
 * one becomes a post of the WRs it accepted, or goes), no checked placement, no arm, no limit event.
 * What is left is a consistent history of an engine that never filled the SRQ nor armed its limit.
 */
export const hideExercise = perRecord((r) => {
  const [actor, kind, invoke, response, a, , errno, d] = r as [number, number, number, number, number, number, number, number];
  if (kind === RecordKind.ARM || kind === RecordKind.LIMIT_EVENT) return undefined;
  if (kind === RecordKind.POST && errno !== 0) return d > 0 ? [actor, kind, invoke, response, a, d, 0, d] : undefined;
  return kind === RecordKind.RECV ? [...r.slice(0, RECORD_WIDTH - 1), Placement.UNCHECKED] : r;
});

/** Runs the concurrent workloads, then reports histories with nothing in them that could fail enomem, capacity, placement or the limit. */
export const hidesWhatItsEngineDid = () =>
  lying('hides-exercise', { runConcurrent: (real) => async (plan: never) => {
    const out = (await real(plan)) as { err: number; stage: string; records: number[] };
    return { ...out, records: hideExercise(out.records) };
  } });

/** Answers the device query, then never answers again: every case runs into its timeout. */
const never = () => () => new Promise<never>(() => undefined);
export const hangs = () => lying('hangs', { allocPd: never, runConcurrent: never });

/** Declares no capability at all, so every case that needs one is skipped. */
export const declaresNothing = () => lying('declares-nothing', {}, (i) => ({ ...i, capabilities: [] }));

/** The model without some of its capabilities: a device that honestly lacks optional features. */
export const lacking = (...missing: string[]) => lying(`lacking-${missing.join('-')}`, {}, (i) => ({ ...i, capabilities: i.capabilities.filter((c) => !missing.includes(c)) }));

/**
 * The model, but its cases "run where the implementation lives" (a CaseHost) and come back with
 * `record(id)`: a worker or an out-of-tree adapter that reports verdicts instead of evidence.
 */
export const hostsCases = (name: string, record: (id: string) => unknown): Adapter => {
  const model = referenceModel();
  return {
    ...model,
    info: async () => ({ ...(await model.info()), adapter: name }),
    // its probes it leaves to the runner (declined), so the lies are all in the cases' records
    caseHost: { runCase: async (request) => ('probe' in (request as object) ? { kind: 'declined' } : { kind: 'done', wire: toWire(record((request as { id: string }).id)) }) },
  };
};
