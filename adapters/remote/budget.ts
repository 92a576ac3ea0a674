import { z } from 'zod';
import type { DeviceAttr } from '../../spec/verbs/attrs.js';
import type { CallName } from '../calls.js';

/**
 * Bounds on what remote callers may ask of a host, so that no client (and no number of them) can
 * exhaust the agent's memory, its CPU or its sessions. A request over a bound is refused before
 * the implementation sees it (OverBudget: RESOURCE_EXHAUSTED over gRPC) and logged.
 */
export const HostLimits = z.object({
  /** Sessions open at once, all clients together. */
  maxSessions: z.number().int().positive(),
  /** Sessions open at once from one client (its address, see adapters/grpc/service.ts). */
  maxSessionsPerClient: z.number().int().positive(),
  /** Resources (PD, MR, CQ, SRQ, QP) one session may hold. */
  maxResourcesPerSession: z.number().int().positive(),
  /** The deepest CQ, SRQ or QP queue one request may ask for. */
  maxQueueDepth: z.number().int().positive(),
  /** The largest MR one request may register. */
  maxMrBytes: z.number().int().positive(),
  /** Work requests in one post (and SGES_PER_WR times as many SGEs in all). */
  maxWrsPerPost: z.number().int().positive(),
  /** Calls of one session in progress at once. */
  maxCallsInFlight: z.number().int().positive(),
  /** Memory (by the cost model below) one session's resources may hold. */
  maxSessionMemory: z.number().int().positive(),
  /** Memory (by the cost model below) all of one client's sessions may hold together. */
  maxClientMemory: z.number().int().positive(),
  /** Memory (by the cost model below) all sessions' resources together may hold. */
  maxAgentMemory: z.number().int().positive(),
});
export type HostLimits = z.infer<typeof HostLimits>;

const MiB = 1 << 20;

// Generous enough for every shared case (they probe device maxima plus one) and the fuzzer; small
// enough that the agent's whole budget fits a default Node heap with room to spare.
export const DEFAULT_LIMITS: HostLimits = {
  maxSessions: 64,
  maxSessionsPerClient: 16,
  maxResourcesPerSession: 4096,
  maxQueueDepth: 1 << 22,
  maxMrBytes: 16 * MiB,
  maxWrsPerPost: 1024,
  maxCallsInFlight: 16,
  maxSessionMemory: 256 * MiB,
  maxClientMemory: 256 * MiB,
  maxAgentMemory: 1024 * MiB,
};

/**
 * The memory a case run where the host cannot see its calls (SessionHost.hostCase) holds up front,
 * at most: the built-in cases' heaviest holds under 0.5 MiB by the cost model (on the model), so
 * this leaves room for devices whose queues cost more, and a client still runs as many cases at
 * once as it may hold sessions within the default client budget.
 */
export const CASE_MEMORY = 16 * MiB;

/**
 * No bounds: for a worker's host, which answers only to the process that started it (the runner,
 * or an agent that applies its own budgets before it forwards a call).
 */
export const NO_LIMITS: HostLimits = {
  maxSessions: Infinity,
  maxSessionsPerClient: Infinity,
  maxResourcesPerSession: Infinity,
  maxQueueDepth: Infinity,
  maxMrBytes: Infinity,
  maxWrsPerPost: Infinity,
  maxCallsInFlight: Infinity,
  maxSessionMemory: Infinity,
  maxClientMemory: Infinity,
  maxAgentMemory: Infinity,
};

/**
 * The cost model: what a created resource may come to cost the serving process once its queues
 * are full. A queue slot costs WQE_BYTES plus SGE_BYTES per scatter/gather entry it may hold (a
 * posted WR in the model is a few JavaScript objects; rdmavt's own rvt_rwqe is 16 + 16 per SGE),
 * a ring has max_wr + 1 slots as rdmavt allocates it, a CQ cqe + 1 entries, an MR its length.
 * PDs cost nothing here (maxResourcesPerSession bounds them).
 */
export const WQE_BYTES = 128;
export const SGE_BYTES = 96;
export const CQE_BYTES = 128;

const ring = (wr: number, sge: number) => (wr + 1) * (WQE_BYTES + sge * SGE_BYTES);

interface Cap {
  max_send_wr: number;
  max_recv_wr: number;
  max_send_sge: number;
  max_recv_sge: number;
}

/** The device's queue limits, as its own query_device answered (never the client's word). */
export type DeviceLimits = Pick<DeviceAttr, 'max_qp_wr' | 'max_sge' | 'max_cqe' | 'max_srq_wr' | 'max_srq_sge'>;

/**
 * The memory a create call asks for, by the cost model; 0 for every other call. Arguments are
 * validated. A queue beyond the device's limits costs nothing: the device refuses it before
 * allocating (the suite asks for max_qp_wr + 1 to see the EINVAL), so it must reach the device.
 */
export function memoryCost(call: CallName, args: Record<string, unknown>, device?: DeviceLimits): number {
  const beyond = (n: number, limit: number | undefined) => limit !== undefined && n > limit;
  switch (call) {
    case 'regMr':
      return args.length as number;
    case 'createCq':
      return beyond(args.cqe as number, device?.max_cqe) ? 0 : ((args.cqe as number) + 1) * CQE_BYTES;
    case 'createSrq': {
      const attr = args.attr as { max_wr: number; max_sge: number };
      if (beyond(attr.max_wr, device?.max_srq_wr) || beyond(attr.max_sge, device?.max_srq_sge)) return 0;
      return ring(attr.max_wr, attr.max_sge);
    }
    case 'createQp': {
      const init = args.init as { cap: Cap; srq?: unknown };
      const { cap } = init;
      const wr = Math.max(cap.max_send_wr, cap.max_recv_wr);
      if (beyond(wr, device?.max_qp_wr) || beyond(Math.max(cap.max_send_sge, cap.max_recv_sge), device?.max_sge)) return 0;
      return ring(cap.max_send_wr, cap.max_send_sge) + (init.srq === undefined ? ring(cap.max_recv_wr, cap.max_recv_sge) : 0);
    }
    default:
      return 0;
  }
}

/** SGEs a post may carry per WR it may carry, in all: room for any device's max_sge in one WR. */
export const SGES_PER_WR = 4;

const POSTS = new Set<string>(['postSrqRecv', 'postRecv', 'postSend']);

/**
 * A concurrent workload may post this many times the WRs of one post: its history (about two
 * records of 64 bytes per WR) is what the host holds and sends back, so it is bounded like a post.
 */
export const CONCURRENT_POSTS = 200;

/** The WRs a runConcurrent request's posters post in all, counted on the raw request. */
function concurrentWrs(rawArgs: unknown): number {
  const posters = (rawArgs as { posters?: unknown } | null)?.posters;
  if (!Array.isArray(posters)) return 0;
  let wrs = 0;
  for (const poster of posters) {
    const batches = (poster as { batches?: unknown } | null)?.batches;
    if (Array.isArray(batches)) for (const b of batches) wrs += typeof b === 'number' && b > 0 ? b : 0;
  }
  return wrs;
}

/**
 * The WRs and SGEs a post carries, counted on the raw request (before it is validated or decoded,
 * which costs time in proportion): undefined for a call that is not a post.
 */
export function postSize(call: string, rawArgs: unknown): { wrs: number; sges: number } | undefined {
  if (call === 'runConcurrent') return { wrs: concurrentWrs(rawArgs), sges: 0 };
  if (!POSTS.has(call)) return undefined;
  const wrs = (rawArgs as { wrs?: unknown } | null)?.wrs;
  if (!Array.isArray(wrs)) return { wrs: 0, sges: 0 };
  let sges = 0;
  for (const wr of wrs) {
    const list = (wr as { sg_list?: unknown } | null)?.sg_list;
    if (Array.isArray(list)) sges += list.length;
  }
  return { wrs: wrs.length, sges };
}

/** Bytes as people read them, for refusal messages. */
export const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
