import type { Socket } from 'node:net';
import { mib } from '../remote/budget.js';
import type { RefusalLog } from './refusal-log.js';

/** A client is the address it calls from (IPv4-mapped addresses as IPv4): its sessions share its budget. */
export function clientOf(peer: string): string {
  const host = peer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}

/** Adds to a count by client, which holds no client whose count is 0. */
function addTo(counts: Map<string, number>, client: string, by: number): void {
  const n = (counts.get(client) ?? 0) + by;
  if (n === 0) counts.delete(client);
  else counts.set(client, n);
}

/** Bounds on the connections themselves, before any credentials are seen. */
export interface ConnectionLimits {
  /** Connections open at once, all clients together: well under the usual 1024 file descriptors. */
  maxConnections: number;
  /** Connections open at once from one address. */
  maxConnectionsPerClient: number;
  /**
   * A connection that has made no authenticated call this long after it opened (no TLS or HTTP/2
   * handshake, no rpc, or only health checks and calls without the token) is closed.
   */
  firstCallWithinMs: number;
  /** A connection with answers waiting, none of which HTTP/2 could send for this long (its client stopped reading), is closed. */
  sendStalledMs?: number;
  /** How long after a connection closed for its unsent answers their garbage is collected: one collection for a burst of closes (100 ms). */
  collectAfterMs?: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { maxConnections: 256, maxConnectionsPerClient: 32, firstCallWithinMs: 10_000, sendStalledMs: 60_000 };

/**
 * Connections over a limit that are kept a moment to answer their calls RESOURCE_EXHAUSTED, so that
 * a client learns the agent is full rather than "cannot reach"; past these, one is closed unanswered.
 */
const ANSWERED_REFUSALS = 16;
/** How long such a connection is kept: its first call's answer, not a slot. */
const ANSWERED_REFUSAL_MS = 2000;

/** The default of ConnectionLimits.collectAfterMs. */
const COLLECT_AFTER_MS = 100;

/**
 * What answers written and not yet sent (their client does not read them) may hold, and with them
 * the large requests being served (a WriteMr's data): per client address, and in all.
 */
export interface UnsentBudget {
  client: number;
  agent: number;
}

interface Tracked {
  socket: Socket;
  client: string;
  /** Bytes of answers written on it that HTTP/2 has not sent yet (the peer's window is shut while it does not read). */
  unsent: number;
  /** Closes it when its answers wait and none is sent in time (sendStalledMs); restarted at each answer sent. */
  stall: NodeJS.Timeout | undefined;
  closed: boolean;
  /**
   * Bytes of answers it held when it was closed for them: still in memory until the collection
   * after its close has run (see collectSoon), so still counted. 0 when it was not closed for them.
   */
  garbage: number;
  /** Made an authenticated call: it lives until idle (grpc.max_connection_idle_ms), and is never evicted. */
  trusted: boolean;
  /** Until the first authenticated call: closes the connection when it fires. */
  deadline: NodeJS.Timeout | undefined;
}

/**
 * The agent's door: every TCP connection is admitted here before gRPC sees it. Connections that
 * never make an authenticated call (a port scan, a client stuck in its handshake, health checks or
 * calls without the token, a flood of them) are closed after firstCallWithinMs; and when the agent
 * (or an address) is at its limit, a new connection takes the place of the oldest of them, so a
 * client with credentials always finds room. Only when every slot holds an authenticated client is
 * a connection refused, and its calls are answered RESOURCE_EXHAUSTED saying so.
 */
export class ConnectionGuard {
  /** By grpc-js' peer name (address:port), oldest first. */
  private readonly open = new Map<string, Tracked>();
  /** Connections over a limit, kept to answer RESOURCE_EXHAUSTED: why, by peer name. */
  private readonly refused = new Map<string, string>();
  private readonly unsentByClient = new Map<string, number>();
  private unsentInAll = 0;
  /** Bytes of large requests being served (admitRequest), per client address and in all. */
  private readonly requestsByClient = new Map<string, number>();
  private requestsInAll = 0;
  /** Bytes of answers of connections closed for them, awaiting the collection that frees them (Tracked.garbage), per client address and in all. */
  private readonly garbageByClient = new Map<string, number>();
  private garbageInAll = 0;

  /** A collection asked for and not yet run. */
  private collecting: NodeJS.Timeout | undefined;
  /** The connections closed for their answers whose garbage the collection asked for frees: closed before it runs. */
  private readonly collectable: Tracked[] = [];

  /**
   * `collect`, when given, runs a full garbage collection: after a connection closed for the
   * answers it held, whose Buffers are then garbage that V8 frees only at its next collection.
   */
  constructor(
    private readonly limits: ConnectionLimits,
    private readonly refusals: RefusalLog,
    private readonly unsentBudget: UnsentBudget,
    private readonly collect?: () => void,
  ) {}

  /** Takes a new connection (making room when it can), or refuses it: false when it is closed at once. */
  admit(socket: Socket): boolean {
    const key = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const client = clientOf(key);
    const own = [...this.open].filter(([, t]) => t.client === client);
    const full =
      own.length >= this.limits.maxConnectionsPerClient
        ? { among: own, why: `${client} has ${own.length} connections open, the limit per client` }
        : this.open.size >= this.limits.maxConnections
          ? { among: [...this.open], why: `the agent has ${this.open.size} connections open, its limit` }
          : undefined;
    if (full !== undefined && !this.evict(full.among)) return this.refuse(socket, key, client, full.why);
    const tracked: Tracked = {
      socket,
      client,
      unsent: 0,
      stall: undefined,
      closed: false,
      garbage: 0,
      trusted: false,
      deadline: setTimeout(() => {
        this.refusals.say(client, `closed connection client=${client}: no authenticated call within ${this.limits.firstCallWithinMs} ms of connecting`);
        socket.destroy();
      }, this.limits.firstCallWithinMs),
    };
    this.open.set(key, tracked);
    socket.once('close', () => {
      clearTimeout(tracked.deadline);
      if (this.open.get(key) === tracked) this.open.delete(key);
      this.forget(tracked);
      if (tracked.garbage > 0) this.collectSoon(tracked);
    });
    return true;
  }

  /**
   * An answer of about `bytes` is being written on the connection `peer`; the returned function
   * says it has been sent. Answers pile up in the agent while their client does not read them
   * (HTTP/2 flow control holds them back): past its client's budget, or the agent's, the connection
   * holding the most of them is closed, and its memory goes with it.
   */
  sending(peer: string, bytes: number): () => void {
    const tracked = this.open.get(peer);
    if (tracked === undefined || tracked.closed) return () => undefined;
    this.countUnsent(tracked, bytes);
    this.enforceUnsent(tracked.client);
    return () => {
      if (!tracked.closed) this.countUnsent(tracked, -bytes);
    };
  }

  /**
   * Counts an answer from the start of its call, before it is built (see sending): undefined when
   * that took its client over budget and closed this very connection, so the call is not worth
   * running; why not, when the answers of connections closed for not reading them still await
   * their collection and this one would take the client or the agent past its budget with them
   * (the call is refused: closing more would free nothing sooner). Counted only once written, a client that did not read had as many large answers
   * being built at once as it had calls in flight in all its sessions (2.8 GB for 18 sessions of
   * 4 MiB reads, over a budget of 256 MiB: bench/agent-attacks.ts).
   */
  reserve(peer: string, bytes: number): (() => void) | string | undefined {
    const garbage = this.overGarbage(clientOf(peer), bytes);
    if (garbage !== undefined) return garbage;
    const tracked = this.open.get(peer);
    const release = this.sending(peer, bytes);
    if (tracked?.closed !== true) return release;
    release();
    return undefined;
  }

  /**
   * Room for a large request (a WriteMr's data) while its call runs, in the budgets its client's
   * unsent answers count against: the function that gives it back, or why there is none (the call
   * is refused; nothing is closed, since its client reads). Without it, requests at the MR limit
   * (32 MiB of hex each, and its decoding) were held by no budget, as many as a client's calls in flight.
   */
  admitRequest(peer: string, bytes: number): (() => void) | string {
    const client = clientOf(peer);
    const own = (this.unsentByClient.get(client) ?? 0) + (this.requestsByClient.get(client) ?? 0) + (this.garbageByClient.get(client) ?? 0);
    const all = this.unsentInAll + this.requestsInAll + this.garbageInAll;
    if (own + bytes > this.unsentBudget.client) return `it would hold ${mib(bytes)}, and ${client}'s hold ${mib(own)} of its ${mib(this.unsentBudget.client)}`;
    if (all + bytes > this.unsentBudget.agent) return `it would hold ${mib(bytes)}, and all clients' hold ${mib(all)} of the agent's ${mib(this.unsentBudget.agent)}`;
    this.countRequest(client, bytes);
    let released = false;
    return () => {
      if (!released) this.countRequest(client, -bytes);
      released = true;
    };
  }

  /** Bytes of large requests being served, per client address. */
  requests(): Map<string, number> {
    return new Map(this.requestsByClient);
  }

  /** Bytes of answers of connections closed for them that their collection has not freed yet, per client address. */
  awaitingCollection(): Map<string, number> {
    return new Map(this.garbageByClient);
  }

  /** Bytes of answers written and not yet sent, per client address. */
  unsent(): Map<string, number> {
    return new Map(this.unsentByClient);
  }

  /** An authenticated call arrived on the connection `peer` (grpc-js' address:port): it is in use, and stays. */
  used(peer: string): void {
    const tracked = this.open.get(peer);
    if (tracked === undefined) return;
    clearTimeout(tracked.deadline);
    tracked.deadline = undefined;
    tracked.trusted = true;
  }

  /** Whether the connection `peer` has made an authenticated call. */
  trusted(peer: string): boolean {
    return this.open.get(peer)?.trusted === true;
  }

  /** Why the connection `peer` was refused, when it was: its calls are answered RESOURCE_EXHAUSTED with it. */
  refusalOf(peer: string): string | undefined {
    return this.refused.get(peer);
  }

  /** Connections open now, per client address. */
  count(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { client } of this.open.values()) counts.set(client, (counts.get(client) ?? 0) + 1);
    return counts;
  }

  closeAll(): void {
    for (const { socket } of this.open.values()) socket.destroy();
    clearTimeout(this.collecting);
  }

  private countUnsent(tracked: Tracked, by: number): void {
    const waited = tracked.unsent > 0;
    tracked.unsent += by;
    // an answer sent, or the first to wait: the clock starts again
    if (by < 0 || !waited) this.watchStall(tracked);
    this.unsentInAll += by;
    addTo(this.unsentByClient, tracked.client, by);
  }

  private countRequest(client: string, by: number): void {
    this.requestsInAll += by;
    addTo(this.requestsByClient, client, by);
  }

  private countGarbage(client: string, by: number): void {
    this.garbageInAll += by;
    addTo(this.garbageByClient, client, by);
  }

  /** Why an answer of `bytes` to `client` does not fit beside the garbage awaiting collection; undefined when there is none, or it fits. */
  private overGarbage(client: string, bytes: number): string | undefined {
    if (this.garbageInAll === 0) return undefined;
    const garbage = this.garbageByClient.get(client) ?? 0;
    const own = garbage + (this.unsentByClient.get(client) ?? 0) + (this.requestsByClient.get(client) ?? 0);
    const all = this.garbageInAll + this.unsentInAll + this.requestsInAll;
    const awaiting = `answers of connections closed for not reading them await collection`;
    if (own + bytes > this.unsentBudget.client) return `it would hold ${mib(bytes)}, and ${client}'s hold ${mib(own)} of its ${mib(this.unsentBudget.client)} (${mib(garbage)} of ${awaiting})`;
    if (all + bytes > this.unsentBudget.agent) return `it would hold ${mib(bytes)}, and all clients' hold ${mib(all)} of the agent's ${mib(this.unsentBudget.agent)} (${mib(this.garbageInAll)} of ${awaiting})`;
    return undefined;
  }

  private enforceUnsent(client: string): void {
    const own = this.unsentByClient.get(client) ?? 0;
    const over =
      own > this.unsentBudget.client
        ? { among: client, why: `${mib(own)} of answers to ${client} wait unread, over its budget of client memory (${mib(this.unsentBudget.client)})` }
        : this.unsentInAll > this.unsentBudget.agent
          ? { among: undefined, why: `${mib(this.unsentInAll)} of answers wait unread, over the agent's memory budget (${mib(this.unsentBudget.agent)})` }
          : undefined;
    if (over === undefined) return;
    let heaviest: Tracked | undefined;
    for (const t of this.open.values()) if ((over.among === undefined || t.client === over.among) && t.unsent > (heaviest?.unsent ?? 0)) heaviest = t;
    if (heaviest === undefined) return;
    this.refusals.say(heaviest.client, `closed connection client=${heaviest.client}: it does not read its answers: ${over.why}`);
    this.closeHolding(heaviest);
  }

  private watchStall(tracked: Tracked): void {
    clearTimeout(tracked.stall);
    tracked.stall = undefined;
    const limit = this.limits.sendStalledMs;
    if (tracked.unsent <= 0 || tracked.closed || limit === undefined) return;
    tracked.stall = setTimeout(() => {
      this.refusals.say(tracked.client, `closed connection client=${tracked.client}: it does not read its answers: none sent in ${limit / 1000} s, ${tracked.unsent} bytes waiting`);
      this.closeHolding(tracked);
    }, limit);
    tracked.stall.unref();
  }

  /**
   * Closes a connection for the answers it holds unsent: they are garbage once it is gone, held
   * until collected (see collectSoon), and counted until then when there is a collector. Released
   * at the close, they let new answers be built while the old were still in memory: 736 MiB peak
   * RSS under bench/agent-attacks.ts' attack 1, against a bound of 426, and 194 MiB 5 s after.
   */
  private closeHolding(tracked: Tracked): void {
    const held = tracked.unsent;
    this.forget(tracked);
    // without a collector nothing says when they are freed
    if (this.collect !== undefined) {
      tracked.garbage = held;
      this.countGarbage(tracked.client, held);
    }
    tracked.socket.destroy();
  }

  /**
   * One collection for the connections closed within collectAfterMs, run after grpc-js has let
   * go of their calls. The agent's memory under a client that does not read was mostly such
   * garbage: an agent that idles allocates nothing, and V8 then never collects it.
   */
  private collectSoon(closed: Tracked): void {
    this.collectable.push(closed);
    if (this.collecting !== undefined) return;
    this.collecting = setTimeout(() => {
      this.collecting = undefined;
      const freed = this.collectable.splice(0);
      this.collect?.();
      for (const t of freed) this.countGarbage(t.client, -t.garbage);
    }, this.limits.collectAfterMs ?? COLLECT_AFTER_MS);
    this.collecting.unref();
  }

  /** A connection closed (or being closed): its HTTP/2 session, and the answers it held, go with it. */
  private forget(tracked: Tracked): void {
    if (tracked.closed) return;
    tracked.closed = true;
    this.countUnsent(tracked, -tracked.unsent);
    clearTimeout(tracked.stall);
  }

  /** Closes the oldest connection of `among` that has made no authenticated call, if there is one. */
  private evict(among: [string, Tracked][]): boolean {
    const oldest = among.find(([, t]) => !t.trusted);
    if (oldest === undefined) return false;
    const [key, victim] = oldest;
    this.refusals.say(victim.client, `closed connection client=${victim.client}: no authenticated call yet, and a new connection needs its slot`);
    clearTimeout(victim.deadline);
    this.open.delete(key);
    victim.socket.destroy();
    return true;
  }

  private refuse(socket: Socket, key: string, client: string, why: string): boolean {
    this.refusals.say(client, `refused connection client=${client}: ${why}`);
    if (this.refused.size >= ANSWERED_REFUSALS) {
      socket.destroy();
      return false;
    }
    this.refused.set(key, why);
    const timer = setTimeout(() => socket.destroy(), ANSWERED_REFUSAL_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      this.refused.delete(key);
    });
    return true;
  }
}
