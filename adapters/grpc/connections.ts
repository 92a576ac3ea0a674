import type { Socket } from 'node:net';
import type { RefusalLog } from './refusal-log.js';

/** A client is the address it calls from (IPv4-mapped addresses as IPv4): its sessions share its budget. */
export function clientOf(peer: string): string {
  const host = peer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}

/** Bounds on the connections themselves, before any credentials are seen. */
export interface ConnectionLimits {
  /** Connections open at once, all clients together: well under the usual 1024 file descriptors. */
  maxConnections: number;
  /** Connections open at once from one address. */
  maxConnectionsPerClient: number;
  /** A connection that has made no call this long after it opened (no TLS or HTTP/2 handshake, no rpc) is closed. */
  firstCallWithinMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { maxConnections: 256, maxConnectionsPerClient: 32, firstCallWithinMs: 10_000 };

interface Tracked {
  socket: Socket;
  client: string;
  /** Until the first call: closes the connection when it fires. */
  deadline: NodeJS.Timeout | undefined;
}

/**
 * The agent's door: every TCP connection is admitted here before gRPC sees it. Idle connections
 * that never complete a call (a port scan, a client stuck in its handshake, a flood of them) would
 * otherwise hold a file descriptor each for ever and lock legitimate clients out.
 */
export class ConnectionGuard {
  private readonly open = new Map<string, Tracked>();

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly refusals: RefusalLog,
  ) {}

  /** Takes a new connection, or closes it at once when its client or the agent has too many. */
  admit(socket: Socket): boolean {
    const key = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const client = clientOf(key);
    const own = [...this.open.values()].filter((t) => t.client === client).length;
    const refusal =
      this.open.size >= this.limits.maxConnections
        ? `the agent has ${this.open.size} connections open, its limit`
        : own >= this.limits.maxConnectionsPerClient
          ? `${client} has ${own} connections open, the limit per client`
          : undefined;
    if (refusal !== undefined) {
      this.refusals.say(client, `refused connection client=${client}: ${refusal}`);
      socket.destroy();
      return false;
    }
    const tracked: Tracked = {
      socket,
      client,
      deadline: setTimeout(() => {
        this.refusals.say(client, `closed connection client=${client}: no call within ${this.limits.firstCallWithinMs} ms of connecting`);
        socket.destroy();
      }, this.limits.firstCallWithinMs),
    };
    this.open.set(key, tracked);
    socket.once('close', () => {
      clearTimeout(tracked.deadline);
      this.open.delete(key);
    });
    return true;
  }

  /** A call arrived on the connection `peer` (grpc-js' address:port): it is in use, and stays. */
  used(peer: string): void {
    const tracked = this.open.get(peer);
    if (tracked === undefined) return;
    clearTimeout(tracked.deadline);
    tracked.deadline = undefined;
  }

  /** Connections open now, per client address. */
  count(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { client } of this.open.values()) counts.set(client, (counts.get(client) ?? 0) + 1);
    return counts;
  }

  closeAll(): void {
    for (const { socket } of this.open.values()) socket.destroy();
  }
}
