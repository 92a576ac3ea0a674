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
