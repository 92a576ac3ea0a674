import type { Adapter, AdapterInfo, Session } from '../adapter.js';
import { type CallName, callNames, calls } from '../calls.js';

/** What a host refuses before it reaches the implementation: bad input from the far side. */
export class InvalidRequest extends Error {
  override name = 'InvalidRequest';
}

/** Bounds on what one remote session may ask for, so a client cannot exhaust the device. */
export interface HostLimits {
  maxSessions: number;
  maxResourcesPerSession: number;
  maxQueueDepth: number;
  maxMrBytes: number;
}

// Generous enough for any device's own limits plus one (the cases probe max + 1), small enough to bound memory.
export const DEFAULT_LIMITS: HostLimits = { maxSessions: 64, maxResourcesPerSession: 4096, maxQueueDepth: 1 << 22, maxMrBytes: 16 << 20 };

/** The handle a create call returns, by call name; and the call that destroys it. */
const CREATES: Partial<Record<CallName, string>> = { allocPd: 'pd', regMr: 'mr', createCq: 'cq', createSrq: 'srq', createQp: 'qp' };
const DESTROYS: Partial<Record<CallName, string>> = { deallocPd: 'pd', deregMr: 'mr', destroyCq: 'cq', destroySrq: 'srq', destroyQp: 'qp' };

interface Hosted {
  session: Session;
  /** Live resources, `kind:handle`: the host's own accounting of what the session holds. */
  resources: Set<string>;
}

/**
 * Serves a local adapter to remote callers (the rxe worker's parent, a gRPC client): sessions by
 * id, every call validated against the call table on the way in and out, resources accounted so
 * a session that goes away leaves nothing behind.
 */
export class SessionHost {
  private readonly sessions = new Map<number, Hosted>();
  private nextId = 1;

  constructor(
    private readonly adapter: Adapter,
    readonly limits: HostLimits = DEFAULT_LIMITS,
  ) {}

  info(): Promise<AdapterInfo> {
    return this.adapter.info();
  }

  async open(): Promise<number> {
    if (this.sessions.size >= this.limits.maxSessions) throw new InvalidRequest(`at most ${this.limits.maxSessions} sessions at once`);
    const session = await this.adapter.open();
    const id = this.nextId++;
    this.sessions.set(id, { session, resources: new Set() });
    return id;
  }

  /** Validates, applies the limits, calls, validates the result, and accounts the resources. */
  async call(id: number, name: string, rawArgs: unknown): Promise<unknown> {
    const hosted = this.sessions.get(id);
    if (hosted === undefined) throw new InvalidRequest(`no session ${id}`);
    if (!(callNames as string[]).includes(name)) throw new InvalidRequest(`no call named ${name}`);
    const call = name as CallName;
    const parsed = calls[call].args.safeParse(rawArgs);
    if (!parsed.success) throw new InvalidRequest(`${call}: ${parsed.error.message}`);
    this.checkLimits(hosted, call, parsed.data as Record<string, unknown>);
    const result = (await (hosted.session[call] as (a: unknown) => Promise<unknown>)(parsed.data)) as Record<string, unknown>;
    const checked = calls[call].result.parse(result) as Record<string, unknown>;
    this.account(hosted, call, parsed.data as Record<string, unknown>, checked);
    return checked;
  }

  async close(id: number): Promise<void> {
    const hosted = this.sessions.get(id);
    if (hosted === undefined) return;
    this.sessions.delete(id);
    await hosted.session.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  /** The host's accounting: open sessions and the resources each still holds. */
  accounting(): { sessions: number; resources: number } {
    let resources = 0;
    for (const hosted of this.sessions.values()) resources += hosted.resources.size;
    return { sessions: this.sessions.size, resources };
  }

  private checkLimits(hosted: Hosted, call: CallName, args: Record<string, unknown>): void {
    const { limits } = this;
    if (CREATES[call] !== undefined && hosted.resources.size >= limits.maxResourcesPerSession) {
      throw new InvalidRequest(`at most ${limits.maxResourcesPerSession} resources per session`);
    }
    const depth = (n: unknown) => typeof n === 'number' && n > limits.maxQueueDepth;
    const attr = args.attr as Record<string, unknown> | undefined;
    const cap = (args.init as { cap?: Record<string, unknown> } | undefined)?.cap;
    if (depth(args.cqe) || depth(attr?.max_wr) || depth(cap?.max_send_wr) || depth(cap?.max_recv_wr)) {
      throw new InvalidRequest(`${call}: a queue deeper than ${limits.maxQueueDepth} is refused by this host`);
    }
    if (typeof args.length === 'number' && args.length > limits.maxMrBytes) {
      throw new InvalidRequest(`${call}: more than ${limits.maxMrBytes} bytes is refused by this host`);
    }
  }

  private account(hosted: Hosted, call: CallName, args: Record<string, unknown>, result: Record<string, unknown>): void {
    const created = CREATES[call];
    if (created !== undefined && result.rawReturn === 0 && typeof result[created] === 'number') {
      hosted.resources.add(`${created}:${result[created]}`);
    }
    const destroyed = DESTROYS[call];
    if (destroyed !== undefined && result.rawReturn === 0) hosted.resources.delete(`${destroyed}:${args[destroyed]}`);
  }
}
