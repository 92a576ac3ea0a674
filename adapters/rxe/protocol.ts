import { z } from 'zod';
import { fromWire, toWire } from '../remote/wire.js';

/**
 * The line protocol between rxeAdapter and its worker process (adapters/rxe/worker.ts): one JSON
 * message per line on the worker's stdin (requests) and stdout (responses), u64 values encoded by
 * adapters/remote/wire.ts. Responses carry the request's id; they may come back in any order.
 */
const id = z.number().int().min(0);

export const Request = z.discriminatedUnion('kind', [
  z.object({ id, kind: z.literal('info') }),
  z.object({ id, kind: z.literal('open') }),
  /** `args` are checked against the call table by the worker's SessionHost, not here. */
  z.object({ id, kind: z.literal('call'), session: z.number().int(), call: z.string(), args: z.unknown() }),
  z.object({ id, kind: z.literal('close'), session: z.number().int() }),
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

export const encodeLine = (message: Request | Response): string => `${toWire(message)}\n`;

/** Parses one line; throws (a ZodError or SyntaxError) on anything that is not a valid message. */
export const decodeRequest = (line: string): Request => Request.parse(fromWire(line));
export const decodeResponse = (line: string): Response => Response.parse(fromWire(line));
