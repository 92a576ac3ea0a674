/**
 * Errors as data, on the ground floor so that any layer may throw them; only the CLI maps them to
 * exit codes (cli/program.ts).
 */

/**
 * An error a user can act on: what was wrong, where, what to do. The CLI prints `message` (and
 * `hint`) without a stack trace and exits 2 (124 when `reason` is `timeout`).
 */
export class UserError extends Error {
  override name = 'UserError';
  readonly hint: string | undefined;
  /** What kind of problem, when it is not bad usage or input: the CLI's exit code follows it. */
  readonly reason: 'usage' | 'timeout';

  constructor(message: string, options: { hint?: string; reason?: 'usage' | 'timeout'; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
    this.reason = options.reason ?? 'usage';
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/**
 * The infrastructure between the harness and the implementation is gone or unusable: an agent
 * that went away, is full or refuses this client, a protocol the far side broke. Nothing observed
 * after it says anything about the implementation, so the runner stops on it and the CLI says why
 * (exit 2). Here, on the ground floor, so that any layer may throw it and only the CLI maps it.
 */
export class InfrastructureError extends Error {
  override name = 'InfrastructureError';
  /** What to do about it, in a sentence. */
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
  }
}

/** A crash of the implementation (a worker process dying): a result, not a lost run. */
export class ImplementationCrash extends Error {
  override name = 'ImplementationCrash';
}
