import { createInterface } from 'node:readline';
import type { Adapter } from '../adapter.js';
import { type CaseAnswer, type Request, type Response, type WorkerError, decodeRequest, encodeLine } from '../ibverbs/protocol.js';

/**
 * What runs a whole case in a worker, on the worker's own adapter (suites/case-worker.ts): given
 * by the worker's entry, since the cases live above the adapters.
 */
export type CaseServer = (adapter: Adapter, request: unknown, progressPath: string) => Promise<CaseAnswer>;

/** An error that names why the implementation cannot run here (the parent maps `code` to a remedy). */
export class Unavailable extends Error {
  override name = 'Unavailable';
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

function describe(error: unknown): WorkerError {
  if (error instanceof Unavailable) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/**
 * The body of a worker process: one request per line on stdin, one response per line on stdout
 * (adapters/ibverbs/protocol.ts). When the parent ends stdin, `onClose` releases what the worker
 * holds before it exits.
 */
export function serveWorker(name: string, handle: (request: Request) => Promise<unknown>, onClose: () => Promise<void>): void {
  const respond = (response: Response) => process.stdout.write(encodeLine(response));
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let request: Request;
    try {
      request = decodeRequest(line);
    } catch (error) {
      // Without a valid id there is no one to answer: the parent is broken, so stop.
      process.stderr.write(`${name}: malformed request (${String(error)})\n`);
      process.exit(2);
    }
    handle(request).then(
      (result) => respond({ id: request.id, ok: true, result: result ?? null }),
      (error: unknown) => respond({ id: request.id, ok: false, error: describe(error) }),
    );
  });
  lines.on('close', () => {
    void onClose().finally(() => process.exit(0));
  });
}
