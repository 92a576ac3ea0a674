import type { Session } from '../adapter.js';
import { type BatchStep, parseBatchResult } from '../batch.js';
import { type CallName, callNames, parseResult } from '../calls.js';

/** Sends one call to the far side and returns its (decoded, not yet validated) result. */
export type Invoke = (call: CallName, args: unknown) => Promise<unknown>;

/** Sends a batch to the far side, which runs it there and answers once. */
export type InvokeBatch = (steps: readonly BatchStep[]) => Promise<unknown>;

/**
 * A session whose calls go over a transport (a worker's pipe, a gRPC channel). The result is
 * validated here against the call table, the same schemas the far side used. With `batch`, the
 * far side runs batches too (runBatch): one crossing per batch.
 */
export function remoteSession(invoke: Invoke, close: () => Promise<void>, batch?: InvokeBatch): Session {
  const session = { close } as Session;
  if (batch !== undefined) session.runBatch = async (steps) => parseBatchResult(await batch(steps));
  for (const name of callNames) {
    (session as Record<string, unknown>)[name] = async (args: unknown) => parseResult[name](await invoke(name, args));
  }
  return session;
}
