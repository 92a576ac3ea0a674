import { z } from 'zod';
import { fromWire, toWire } from '../remote/wire.js';

/**
 * The line protocol between rxeAdapter and its worker process (suites/ibverbs-worker.ts): one JSON
 * message per line on the worker's stdin (requests) and stdout (responses), u64 values encoded by
 * adapters/remote/wire.ts. Responses carry the request's id; they may come back in any order.
 */
const id = z.number().int().min(0);

export const Request = z.discriminatedUnion('kind', [
  z.object({ id, kind: z.literal('info') }),
  /** Answered once the worker is up and has its device open (null), before a case's budget starts. */
  z.object({ id, kind: z.literal('ready') }),
  z.object({ id, kind: z.literal('open') }),
  /** `args` are checked against the call table by the worker's SessionHost, not here. */
  z.object({ id, kind: z.literal('call'), session: z.number().int(), call: z.string(), args: z.unknown() }),
  z.object({ id, kind: z.literal('close'), session: z.number().int() }),
  /** A batch of calls (adapters/batch.ts) run in the worker, answered once; `steps` are checked by its SessionHost. */
  z.object({ id, kind: z.literal('batch'), session: z.number().int(), steps: z.unknown() }),
  /** A whole case run in the worker (suites/case-worker.ts checks `case`); it writes its progress to the file `progress`. */
  z.object({ id, kind: z.literal('case'), progress: z.string(), case: z.unknown() }),
]);
export type Request = z.infer<typeof Request>;
export type RequestBody = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

export const WorkerError = z.object({
  name: z.string(),
  message: z.string(),
  /** For name `Unavailable`: why the native path cannot run (nativeAvailability's reason). */
  code: z.string().optional(),
});
export type WorkerError = z.infer<typeof WorkerError>;

export const Response = z.discriminatedUnion('ok', [
  z.object({ id, ok: z.literal(true), result: z.unknown() }),
  z.object({ id, ok: z.literal(false), error: WorkerError }),
]);
export type Response = z.infer<typeof Response>;

/** The calls a batch request names, read leniently (the SessionHost validates them): a test fault meant for a call meets it in a batch too. */
export const batchCallNames = (steps: unknown): string[] =>
  Array.isArray(steps) ? steps.map((step) => (typeof step === 'object' && step !== null && typeof (step as { call?: unknown }).call === 'string' ? (step as { call: string }).call : '')) : [];

/** The worker's answer to a `case` request: its record of the case, and whether the worker is fit for another (a timed-out case may still run in it). */
/** A hosted case's answer: its record as wire JSON (adapters/remote/wire.ts), passed on as it is to whoever judges it. */
export const CaseAnswer = z.object({ record: z.string(), dirty: z.boolean() });
export type CaseAnswer = z.infer<typeof CaseAnswer>;

/**
 * A line of a case's progress file: what the case is doing (free text, e.g. `postSend in
 * post_send/x`), a tab, then whatever its writer records. A crash report names the last line's label.
 */
export const progressLabel = (line: string): string => line.split('\t', 1)[0] ?? '';

export const encodeLine = (message: Request | Response): string => `${toWire(message)}\n`;

/** Parses one line; throws (a ZodError or SyntaxError) on anything that is not a valid message. */
export const decodeRequest = (line: string): Request => Request.parse(fromWire(line));
export const decodeResponse = (line: string): Response => Response.parse(fromWire(line));
