import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { ZodError } from 'zod';
import { InvalidRequest, OverBudget, UnknownHandle } from '../remote/refusals.js';

/** An error that is a gRPC status: the agent refusing a call, or a call the agent answered with an error. */
export class StatusError extends Error {
  override name = 'StatusError';
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The status a failed call ends with: what the client sent was wrong (INVALID_ARGUMENT; a handle
 * or session it does not hold, NOT_FOUND; over a budget, RESOURCE_EXHAUSTED; and the agent carries
 * on), a refusal's own code, or the implementation itself failed (INTERNAL).
 */
export function statusOf(error: unknown): { code: status; details: string } {
  if (error instanceof StatusError) return { code: error.code, details: error.message };
  if (error instanceof InvalidRequest) return { code: status.INVALID_ARGUMENT, details: error.message };
  if (error instanceof UnknownHandle) return { code: status.NOT_FOUND, details: error.message };
  if (error instanceof OverBudget) return { code: status.RESOURCE_EXHAUSTED, details: `over the agent's budget of ${error.budget}: ${error.message}` };
  if (error instanceof ZodError) return { code: status.INTERNAL, details: `the adapter on the agent broke its contract: ${error.message}` };
  return { code: status.INTERNAL, details: `the implementation failed: ${error instanceof Error ? error.message : String(error)}` };
}

/** A status as the error a server stream ends with. */
export function serviceError(s: { code: status; details: string }): ServiceError {
  return Object.assign(new Error(s.details), { ...s, metadata: new Metadata() });
}

export const statusName = (code: status) => status[code] ?? String(code);

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';
}
