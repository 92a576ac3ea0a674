import { z } from 'zod';
import {
  DeviceAttr,
  Gid,
  MrAccess,
  PortAttr,
  QpAttr,
  QpAttrMask,
  QpCap,
  QpInitAttr,
  QpState,
  SrqAttr,
  SrqType,
  SrqAttrMask,
} from '../spec/verbs/attrs.js';
import { AsyncEvent } from '../spec/verbs/events.js';
import { ConcurrentOutcome, ConcurrentPlan } from './concurrent.js';
import { Handle, u32, u64 } from '../spec/verbs/ints.js';
import { PostContext, RawPostOutcome, RawStatus } from '../spec/verbs/outcome.js';
import { WorkCompletion } from '../spec/verbs/wc.js';
import { fastParse } from '../spec/fast-parse.js';
import { RecvWr, SendWr } from '../spec/verbs/wr.js';

/**
 * Every call a session offers, as data: the argument and result schemas.
 * This table is the single description of an adapter call; the in-process session,
 * the rxe worker's messages and the gRPC transport are all derived from it.
 */
function call<A extends z.ZodType, R extends z.ZodType>(args: A, result: R) {
  return { args, result };
}

/**
 * Bytes of an MR's buffer, as lowercase hex so they cross JSON and gRPC unchanged. A flat character
 * class and a length check, not a repeated group: V8 keeps a backtrack entry per repetition of a
 * group, which overflowed its stack from 4 MiB of data (16 MiB is the MR limit).
 */
export const Hex = z
  .string()
  .regex(/^[0-9a-f]*$/)
  .refine((hex) => hex.length % 2 === 0, 'an even number of hex digits (two per byte)');

const created = <K extends string>(key: K) =>
  RawStatus.extend({ [key]: Handle.nullable() } as { [P in K]: z.ZodNullable<typeof Handle> });

export const calls = {
  queryDevice: call(z.object({}), DeviceAttr),
  queryPort: call(z.object({ port_num: z.number().int().min(1) }), PortAttr),
  queryGid: call(z.object({ port_num: z.number().int().min(1), index: z.number().int().min(0) }), z.object({ gid: Gid })),

  allocPd: call(z.object({}), created('pd')),
  deallocPd: call(z.object({ pd: Handle }), RawStatus),

  regMr: call(
    z.object({ pd: Handle, length: z.number().int().min(1).max(1 << 24), access: z.array(MrAccess) }),
    created('mr').extend({ lkey: u32, rkey: u32, addr: u64 }),
  ),
  writeMr: call(z.object({ mr: Handle, offset: z.number().int().min(0), data: Hex }), RawStatus),
  readMr: call(z.object({ mr: Handle, offset: z.number().int().min(0), length: z.number().int().min(0) }), z.object({ data: Hex })),
  deregMr: call(z.object({ mr: Handle }), RawStatus),

  createCq: call(z.object({ cqe: z.number().int().min(0) }), created('cq').extend({ cqe: z.number().int() })),
  pollCq: call(
    z.object({ cq: Handle, max: z.number().int().min(1).max(4096) }),
    RawStatus.extend({ completions: z.array(WorkCompletion) }),
  ),
  destroyCq: call(z.object({ cq: Handle }), RawStatus),

  // srq_type absent is BASIC; XRC and TM need a CQ (ibv_srq_init_attr_ex.cq), TM also its tag list size.
  createSrq: call(z.object({ pd: Handle, attr: SrqAttr, srq_type: SrqType.optional(), cq: Handle.optional(), max_num_tags: u32.optional() }), created('srq').extend({ attr: SrqAttr.nullable() })),
  modifySrq: call(z.object({ srq: Handle, attr: SrqAttr.partial(), mask: z.array(SrqAttrMask) }), RawStatus),
  querySrq: call(z.object({ srq: Handle }), RawStatus.extend({ attr: SrqAttr.nullable() })),
  destroySrq: call(z.object({ srq: Handle }), RawStatus),
  postSrqRecv: call(z.object({ srq: Handle, wrs: z.array(RecvWr), context: PostContext.optional() }), RawPostOutcome),

  createQp: call(
    z.object({ pd: Handle, init: QpInitAttr }),
    created('qp').extend({ qp_num: u32.nullable(), cap: QpCap.nullable() }),
  ),
  modifyQp: call(z.object({ qp: Handle, attr: QpAttr, mask: z.array(QpAttrMask) }), RawStatus),
  queryQp: call(
    z.object({ qp: Handle }),
    RawStatus.extend({ state: QpState.nullable(), attr: QpAttr.nullable(), cap: QpCap.nullable() }),
  ),
  destroyQp: call(z.object({ qp: Handle }), RawStatus),
  postRecv: call(z.object({ qp: Handle, wrs: z.array(RecvWr), context: PostContext.optional() }), RawPostOutcome),
  postSend: call(z.object({ qp: Handle, wrs: z.array(SendWr), context: PostContext.optional() }), RawPostOutcome),

  getAsyncEvents: call(z.object({}), z.object({ events: z.array(AsyncEvent) })),

  // The concurrent workload on a fresh SRQ of its own, run by the implementation's engine (adapters/concurrent.ts).
  runConcurrent: call(ConcurrentPlan, ConcurrentOutcome),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallArgs<N extends CallName> = z.output<Calls[N]['args']>;
export type CallArgsInput<N extends CallName> = z.input<Calls[N]['args']>;
export type CallResult<N extends CallName> = z.output<Calls[N]['result']>;

export const callNames = Object.keys(calls) as CallName[];

/**
 * Each call's result schema as a quicker parse of the same schema (spec/fast-parse.ts): what a
 * worker's or an agent's answers pass through, thousands a batch.
 */
export const parseResult = Object.fromEntries(callNames.map((name) => [name, fastParse(calls[name].result)])) as {
  [N in CallName]: (value: unknown) => CallResult<N>;
};
