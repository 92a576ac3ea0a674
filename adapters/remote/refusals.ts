/**
 * What a host refuses before the implementation sees a request, by kind: each transport maps the
 * kind to its own answer (gRPC: INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED).
 */

/** Bad input from the far side: a malformed request, a value out of range. */
export class InvalidRequest extends Error {
  override name = 'InvalidRequest';
}

/** A handle (or session) the caller does not hold: never created, already destroyed, someone else's. */
export class UnknownHandle extends Error {
  override name = 'UnknownHandle';
}

/** A well-formed request over one of the host's budgets (adapters/remote/budget.ts), named in `budget`. */
export class OverBudget extends Error {
  override name = 'OverBudget';
  constructor(
    readonly budget: string,
    message: string,
  ) {
    super(message);
  }
}
