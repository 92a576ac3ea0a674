import { closeSync, openSync, writeSync } from 'node:fs';
import type { CaseServer } from '../adapters/remote/serve-worker.js';
import { CaseRequest, encodeProgress } from './case-record.js';
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

/**
 * Runs a built-in case in this worker, on its own adapter, for a runner in another process
 * (adapters/remote/worker-adapter.ts): the case's whole run is one request. The worker is left
 * dirty by a case that timed out (its body may still run here) or ended in error (a close that
 * failed may have left resources), so the parent starts the next case on a fresh one.
 */
export const serveCase: CaseServer = async (adapter, request, progressPath) => {
  const { id, info, profile, timeoutMs } = CaseRequest.parse(request);
  const kase = allCases.find((c) => c.id === id);
  if (kase === undefined) throw new Error(`this worker has no built-in case ${id}`);
  const fd = openSync(progressPath, 'w');
  try {
    const record = await sessionRun({ adapter, info, profile, timeoutMs }, kase, progressWriter(fd, id));
    return { record, dirty: record.ran === 'timeout' || record.ran === 'error' };
  } finally {
    closeSync(fd);
  }
};
