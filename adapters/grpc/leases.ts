import { randomBytes } from 'node:crypto';
import type { SessionHost } from '../remote/session-host.js';

/** A session held by a client: the host's session id, and the secret that names it on the wire. */
export interface Lease {
  name: string;
  id: number;
  /** Settles once the session is closed, whoever closed it. */
  released: Promise<void>;
}

interface HeldLease extends Lease {
  settle: () => void;
}

/**
 * The sessions clients hold. A client names its session by an unguessable name, never by the
 * host's sequential id, so one client cannot reach another's resources. Releasing is idempotent:
 * CloseSession and the end of the lease stream may both try.
 */
export class Leases {
  private readonly held = new Map<string, HeldLease>();

  constructor(private readonly host: SessionHost) {}

  async grant(client: string): Promise<Lease> {
    const id = await this.host.open(client);
    let settle = () => {};
    const released = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const lease = { name: randomBytes(18).toString('base64url'), id, released, settle };
    this.held.set(lease.name, lease);
    return lease;
  }

  get(name: string): Lease | undefined {
    return this.held.get(name);
  }

  /** Destroys everything the session created (once, however often it is asked). */
  async release(name: string): Promise<void> {
    const lease = this.held.get(name);
    if (lease === undefined) return;
    this.held.delete(name);
    try {
      await this.host.close(lease.id);
    } finally {
      lease.settle();
    }
  }
}
