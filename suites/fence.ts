import type { Session } from '../adapters/adapter.js';
import { callNames } from '../adapters/calls.js';

/** A call made (or answered) after its case ended: it never reaches the adapter, or its answer is dropped. */
export class FencedCall extends Error {
  override name = 'FencedCall';
}

/**
 * A session whose verbs stop once revoked: a case that timed out may still be running (its
 * promise cannot be cancelled), and a late verb of it must not act on the device while the
 * harness closes the session or runs the next case. `close` is the harness's, never fenced.
 */
export function fenced(session: Session): { session: Session; revoke(): void } {
  let revoked = false;
  const guarded = { close: () => session.close() } as Session;
  for (const name of callNames) {
    const call = session[name] as (args: unknown) => Promise<unknown>;
    (guarded as Record<string, unknown>)[name] = async (args: unknown) => {
      if (revoked) throw new FencedCall(`${name} after the case ended: not sent`);
      const result = await call.call(session, args);
      if (revoked) throw new FencedCall(`${name} answered after the case ended: dropped`);
      return result;
    };
  }
  return { session: guarded, revoke: () => { revoked = true; } };
}
