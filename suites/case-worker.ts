import { closeSync, openSync, writeSync } from 'node:fs';
import { z } from 'zod';
import type { Adapter, CaseHost } from '../adapters/adapter.js';
import type { AgentCases } from '../adapters/grpc/service.js';
import type { HostLimits } from '../adapters/remote/budget.js';
import { budgetedAdapter } from '../adapters/remote/budgeted-adapter.js';
import type { CaseServer } from '../adapters/remote/serve-worker.js';
import { toWire } from '../adapters/remote/wire.js';
import { type CaseRecord, CaseRequest, encodeProgress, type ProbeRecord, ProbeRequest } from './case-record.js';
import { probeOne } from './probes.js';
import type { Check } from './checks.js';
import { allCases } from './index.js';
import { type SessionObserver, sessionRun } from './runner.js';
import type { TraceEntry } from './verbs.js';

/**
 * Writes a case's progress to the file `fd` before each step, synchronously: the line is on disk
 * before the verb reaches native code, so a crash there still leaves it (suites/case-record.ts).
 */
function progressWriter(fd: number, caseId: string): SessionObserver {
  let checksWritten = 0;
  const unfinished = new Set<TraceEntry>();
  const write = (label: string, checks: readonly Check[], call?: TraceEntry) => {
    const finished = [...unfinished].filter((entry) => 'result' in entry || 'error' in entry);
    for (const entry of finished) unfinished.delete(entry);
    const fresh = checks.slice(checksWritten);
    checksWritten = checks.length;
    if (call !== undefined) unfinished.add(call);
    const progress = {
      ...(call === undefined ? {} : { call: { seq: call.seq, call: call.call, args: call.args } }),
      finished: finished.map(({ seq, result, error, ms }) => ({ seq, ms, ...(result === undefined ? {} : { result }), ...(error === undefined ? {} : { error }) })),
      checks: fresh,
    };
    writeSync(fd, encodeProgress(`${label} in ${caseId}`, progress));
  };
  return {
    opening: () => write('open', []),
    calling: (trace, checks) => write(trace.at(-1)?.call ?? 'a call', checks, trace.at(-1)),
    closing: (checks) => write('close', checks),
  };
}

/** What the worker made of a request: a case's record, or a probe's; and whether it leaves the worker in doubt. */
type Answer = { record: CaseRecord | ProbeRecord; dirty: boolean };

/**
 * Runs the case (or the capability probe) a request names on `adapter`, within the agent's
 * budgets when it sets some: the record the runner in another process judges again
 * (suites/runner.ts: rejudged; suites/probes.ts: hostedProbe).
 */
async function runRequested(adapter: Adapter, request: unknown, observer?: (id: string) => SessionObserver, signal?: AbortSignal): Promise<Answer> {
  const budgeted = (limits: HostLimits | undefined) => (limits === undefined ? adapter : budgetedAdapter(adapter, limits));
  if (typeof request === 'object' && request !== null && 'probe' in request) {
    const { probe, info, profile, timeoutMs, limits } = ProbeRequest.parse(request);
    const record = await probeOne(budgeted(limits), info, profile, timeoutMs, probe, signal);
    // a probe that failed may have left what it created behind
    return { record, dirty: !record.ok };
  }
  const { id, info, profile, timeoutMs, limits } = CaseRequest.parse(request);
  const kase = allCases.find((c) => c.id === id);
  if (kase === undefined) throw new Error(`no built-in case ${id}`);
  const { infrastructure, ...record } = await sessionRun({ adapter: budgeted(limits), info, profile, timeoutMs, signal }, kase, observer?.(id));
  const dirty = record.ran === 'timeout' || record.ran === 'error';
  return { record: { ...record, ...(infrastructure === undefined ? {} : { infrastructure: { message: infrastructure.message, hint: infrastructure.hint } }) }, dirty };
}

/**
 * Runs a built-in case in this worker, on its own adapter, for a runner in another process
 * (adapters/remote/worker-adapter.ts): the case's whole run is one request. The worker is left
 * dirty by a case that timed out (its body may still run here) or ended in error (a close that
 * failed may have left resources), so the parent starts the next case on a fresh one.
 */
export const serveCase: CaseServer = async (adapter, request, progressPath) => {
  const fd = openSync(progressPath, 'w');
  try {
    const { record, dirty } = await runRequested(adapter, request, (id) => progressWriter(fd, id));
    return { record: toWire(record), dirty };
  } finally {
    closeSync(fd);
  }
};

/**
 * Runs built-in cases in this process, on `adapter`: an agent's case host for an adapter that has
 * no worker of its own (the model). Nothing here can kill a case that outlives its budget; the
 * case's own timeout ends its record, as in a run on this machine.
 */
function caseHostHere(adapter: Adapter): CaseHost {
  return {
    runCase: async (request, _budgetMs, signal) => ({ kind: 'done', wire: toWire((await runRequested(adapter, request, undefined, signal)).record) }),
  };
}

/** A request an agent may hand on: a case or a probe. */
const HostedRequest = z.union([CaseRequest, ProbeRequest]);

/** What is wrong with a client's case (or probe) request, before anything runs it. */
function caseRequestProblem(request: unknown): string | undefined {
  const parsed = HostedRequest.safeParse(request);
  if (!parsed.success) return `not a case or probe request: ${parsed.error.message}`;
  if (parsed.data.limits !== undefined) return 'a request names no limits: the agent sets them';
  if ('probe' in parsed.data) return undefined;
  const { id } = parsed.data;
  return allCases.some((c) => c.id === id) ? undefined : `no built-in case ${id} (rvt-conform list names them)`;
}

/** The built-in cases an agent serving `adapter` runs for its clients: in the adapter's workers where it has them, else in the agent. */
export function agentCases(adapter: Adapter): AgentCases {
  return { problem: caseRequestProblem, host: adapter.caseHost ?? caseHostHere(adapter) };
}
