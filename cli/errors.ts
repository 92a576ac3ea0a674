/**
 * Errors a user can act on: what was wrong, where, what to do.
 * The CLI prints `message` (and `hint`) without a stack trace and exits with `exitCode`.
 */
export class UserError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 2;
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
