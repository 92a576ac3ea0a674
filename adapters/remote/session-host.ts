import type { Adapter, AdapterInfo, Session } from '../adapter.js';
import { BatchArgs, type BatchResult, type BatchStep, type StepResult, parseDrainResult, runStepsOneByOne } from '../batch.js';
import { type CallName, callNames, calls, parseResult } from '../calls.js';
import { CASE_MEMORY, CONCURRENT_POSTS, DEFAULT_LIMITS, type DeviceLimits, type HostLimits, SGES_PER_WR, memoryCost, mib, postSize } from './budget.js';
import { InvalidRequest, OverBudget, UnknownHandle } from './refusals.js';

/** The handle a create call returns, by call name; and the call that destroys it. */
const CREATES: Partial<Record<CallName, string>> = { allocPd: 'pd', regMr: 'mr', createCq: 'cq', createSrq: 'srq', createQp: 'qp' };
const DESTROYS: Partial<Record<CallName, string>> = { deallocPd: 'pd', deregMr: 'mr', destroyCq: 'cq', destroySrq: 'srq', destroyQp: 'qp' };

const CALL_NAMES: ReadonlySet<string> = new Set(callNames);

/** Where a request names a handle, and of which kind: at the top level, or in a QP's init. */
const HANDLE_KINDS = Object.entries({ pd: 'pd', mr: 'mr', cq: 'cq', srq: 'srq', qp: 'qp' });
const INIT_HANDLE_KINDS = Object.entries({ send_cq: 'cq', recv_cq: 'cq', srq: 'srq' });

interface Hosted {
  /** Undefined while the adapter opens it. */
  session: Session | undefined;
  client: string;
  closed: boolean;
  /** Live resources, `kind:handle`, with their cost: the host's own accounting of what the session holds. */
  resources: Map<string, number>;
  /** The sum of `resources`' costs, plus what creates in progress reserved. */
  memory: number;
  inFlight: number;
}

/** One client's share of the host, for the operator. */
export interface ClientUsage {
  client: string;
  sessions: number;
  resources: number;
  /** Bytes, by the cost model (adapters/remote/budget.ts). */
  memory: number;
  callsInFlight: number;
}

/**
 * Serves a local adapter to remote callers (the rxe worker's parent, a gRPC client): sessions by
 * id, every call validated against the call table on the way in and out, resources accounted so
 * a session that goes away leaves nothing behind, and every budget of HostLimits applied before
 * the implementation sees a request.
 */
export class SessionHost {
  private readonly sessions = new Map<number, Hosted>();
  private nextId = 1;
  private memory = 0;
  /** The device's limits, from the first query_device any session made (every case makes one). */
  private device: DeviceLimits | undefined;

  private readonly argsValidated: boolean;
  private readonly resultsValidated: boolean;

  /**
   * `validates`: what the caller parses itself, so it is not parsed twice on one path. `all`: the
   * suites' own verbs layer (suites/verbs.ts) parses every call's arguments before and its result
   * after; `results`: a worker's parent parses every answer against the same schemas
   * (remoteSession), one pipe away, so the worker checks arguments only.
   */
  constructor(
    private readonly adapter: Adapter,
    readonly limits: HostLimits = DEFAULT_LIMITS,
    validates: 'nothing' | 'results' | 'all' = 'nothing',
  ) {
    this.argsValidated = validates === 'all';
    this.resultsValidated = validates !== 'nothing';
  }

  info(): Promise<AdapterInfo> {
    return this.adapter.info();
  }

  /** Takes one of the sessions `client` may hold, before anything asynchronous, so concurrent opens cannot overshoot the bounds. */
  private reserveSession(client: string): { id: number; hosted: Hosted } {
    const { maxSessions, maxSessionsPerClient } = this.limits;
    if (this.sessions.size >= maxSessions) throw new OverBudget('sessions', `the agent serves at most ${maxSessions} sessions at once, and all are open`);
    const own = [...this.sessions.values()].filter((hosted) => hosted.client === client).length;
    if (own >= maxSessionsPerClient) throw new OverBudget('client sessions', `at most ${maxSessionsPerClient} sessions at once per client, and ${client} holds them all`);
    const id = this.nextId++;
    const hosted: Hosted = { session: undefined, client, closed: false, resources: new Map(), memory: 0, inFlight: 0 };
    this.sessions.set(id, hosted);
    return { id, hosted };
  }

  /** Opens a session for `client` (who asks: its sessions are counted together). */
  async open(client = 'local'): Promise<number> {
    const { id, hosted } = this.reserveSession(client);
    try {
      hosted.session = await this.adapter.open();
    } catch (error) {
      this.sessions.delete(id);
      throw error;
    }
    // closeAll ran while it opened: nobody will close it later
    if (hosted.closed) {
      await hosted.session.close();
      throw new UnknownHandle('the host closed every session while this one opened');
    }
    return id;
  }

  /** Validates, applies the budgets, calls, validates the result, and accounts the resources. */
  async call(id: number, name: string, rawArgs: unknown): Promise<unknown> {
    const { hosted, session } = this.hostedSession(id);
    if (!CALL_NAMES.has(name)) throw new InvalidRequest(`no call named ${name}`);
    const call = name as CallName;
    this.checkPostSize(call, rawArgs);
    const parsed = this.argsValidated ? { success: true as const, data: rawArgs } : calls[call].args.safeParse(rawArgs);
    if (!parsed.success) throw new InvalidRequest(`${call}: ${parsed.error.message}`);
    return this.checkedCall(hosted, session, call, parsed.data as Record<string, unknown>);
  }

  /**
   * A batch (adapters/batch.ts), every step checked and accounted as the same call alone would
   * be: by the session's own batch when it has one (one crossing to the device), else step by
   * step here, which is what a worker without one does with the batch's single message. A step
   * this host refuses ends the batch there, as it would have ended a call.
   */
  async batch(id: number, rawSteps: unknown): Promise<BatchResult> {
    const { hosted, session } = this.hostedSession(id);
    const parsed = this.argsValidated ? { success: true as const, data: rawSteps } : BatchArgs.shape.steps.safeParse(rawSteps);
    if (!parsed.success) throw new InvalidRequest(`batch: ${parsed.error.message}`);
    const steps = parsed.data as BatchStep[];
    if (session.runBatch === undefined) {
      const checked = { close: () => session.close() } as Session;
      for (const call of callNames) {
        (checked as Record<string, unknown>)[call] = (args: Record<string, unknown>) => {
          this.checkPostSize(call, args);
          return this.checkedCall(hosted, session, call, args);
        };
      }
      return runStepsOneByOne(checked, steps);
    }
    return this.deviceBatch(hosted, session.runBatch.bind(session), steps);
  }

  /** The host's checks on every step, in order, then the device's batch of those it admitted, then their accounting. */
  private async deviceBatch(hosted: Hosted, runBatch: NonNullable<Session['runBatch']>, steps: readonly BatchStep[]): Promise<BatchResult> {
    const admitted: { step: BatchStep; cost: number }[] = [];
    let refused: StepResult | undefined;
    for (const step of steps) {
      // a drain names only a CQ: the handle check of pollCq is its check
      const call = step.call === 'drainCq' ? 'pollCq' : step.call;
      const args = step.args as Record<string, unknown>;
      try {
        this.checkPostSize(call, args);
        this.checkLimits(hosted, call, args);
        this.checkHandles(hosted, call, args);
        admitted.push({ step, cost: this.reserve(hosted, call, args) });
      } catch (error) {
        refused = { call: step.call, error: error instanceof Error ? error.message : String(error) };
        break;
      }
    }
    if (hosted.inFlight >= this.limits.maxCallsInFlight) {
      for (const { cost } of admitted) this.unreserve(hosted, cost);
      throw new OverBudget('calls in flight', `batch: at most ${this.limits.maxCallsInFlight} calls of one session in progress at once`);
    }
    hosted.inFlight++;
    const kept = new Set<number>();
    try {
      // a batch refused at its first step costs the device nothing
      const { results } = admitted.length === 0 ? { results: [] } : await runBatch(admitted.map(({ step }) => step));
      const checked: StepResult[] = [];
      for (const [i, result] of results.entries()) {
        const { step, cost } = admitted[i] ?? {};
        if (step === undefined || result.call !== step.call) throw new Error(`the device's batch answered step ${i} with ${result.call}`);
        if (!('result' in result) || step.call === 'drainCq') {
          checked.push(this.resultsValidated || !('result' in result) ? result : { call: 'drainCq', result: parseDrainResult(result.result) });
          continue;
        }
        const value = (this.resultsValidated ? result.result : parseResult[step.call](result.result)) as Record<string, unknown>;
        if (step.call === 'queryDevice') this.device ??= value as unknown as DeviceLimits;
        if (this.account(hosted, step.call, step.args as Record<string, unknown>, value, cost ?? 0)) kept.add(i);
        checked.push({ call: step.call, result: value } as StepResult);
      }
      // the host's refusal comes after the steps before it, unless the device's batch ended first
      if (refused !== undefined && results.length === admitted.length && results.every((r) => 'result' in r)) checked.push(refused);
      return { results: checked };
    } finally {
      hosted.inFlight--;
      for (const [i, { cost }] of admitted.entries()) if (!kept.has(i)) this.unreserve(hosted, cost);
    }
  }

  private hostedSession(id: number): { hosted: Hosted; session: Session } {
    const hosted = this.sessions.get(id);
    const session = hosted?.session;
    if (hosted === undefined || session === undefined) throw new UnknownHandle(`no session ${id}`);
    return { hosted, session };
  }

  /** A parsed call under the host's limits, handle checks, budgets and accounting. */
  private async checkedCall(hosted: Hosted, session: Session, call: CallName, args: Record<string, unknown>): Promise<unknown> {
    if (hosted.inFlight >= this.limits.maxCallsInFlight) {
      throw new OverBudget('calls in flight', `${call}: at most ${this.limits.maxCallsInFlight} calls of one session in progress at once`);
    }
    this.checkLimits(hosted, call, args);
    this.checkHandles(hosted, call, args);
    const cost = this.reserve(hosted, call, args);
    hosted.inFlight++;
    let created = false;
    try {
      const result = (await (session[call] as (a: unknown) => Promise<unknown>)(args)) as Record<string, unknown>;
      const checked = this.resultsValidated ? result : (parseResult[call](result) as Record<string, unknown>);
      if (call === 'queryDevice') this.device ??= checked as unknown as DeviceLimits;
      created = this.account(hosted, call, args, checked, cost);
      return checked;
    } finally {
      hosted.inFlight--;
      if (!created) this.unreserve(hosted, cost);
    }
  }

  /** Refuses a post too large to validate in reasonable time; callable on the raw request before any decoding. */
  checkPostSize(call: string, rawArgs: unknown): void {
    const size = postSize(call, rawArgs);
    if (size === undefined) return;
    const { maxWrsPerPost } = this.limits;
    if (call === 'runConcurrent') {
      const most = maxWrsPerPost * CONCURRENT_POSTS;
      if (size.wrs > most) throw new OverBudget('WRs per post', `${call}: a workload of ${size.wrs} WRs; this agent takes at most ${most} (${CONCURRENT_POSTS} times its WRs per post)`);
      return;
    }
    if (size.wrs > maxWrsPerPost) throw new OverBudget('WRs per post', `${call}: ${size.wrs} WRs in one post; this agent takes at most ${maxWrsPerPost}`);
    if (size.sges > maxWrsPerPost * SGES_PER_WR) {
      throw new OverBudget('WRs per post', `${call}: ${size.sges} SGEs in one post; this agent takes at most ${maxWrsPerPost * SGES_PER_WR}`);
    }
  }

  /**
   * A case run where this host cannot see its calls (in the adapter's worker, suites/case-worker.ts)
   * counts as one of `client`'s sessions while it runs, and holds a share of memory reserved up
   * front: CASE_MEMORY, or less when the session budget or what is left of the client's or the
   * agent's is less. `run` gets the limits to apply to the case's own session there, which are this
   * host's with that share.
   */
  async hostCase<T>(client: string, run: (limits: HostLimits) => Promise<T>): Promise<T> {
    const { id, hosted } = this.reserveSession(client);
    try {
      const { maxSessionMemory, maxClientMemory, maxAgentMemory } = this.limits;
      const clientMemory = this.clientMemory(client);
      const share = Math.min(maxSessionMemory, CASE_MEMORY, maxClientMemory - clientMemory, maxAgentMemory - this.memory);
      if (share <= 0) {
        const whose = maxClientMemory - clientMemory <= 0 ? `${client}'s sessions hold all of its ${mib(maxClientMemory)}` : `all sessions hold the agent's ${mib(maxAgentMemory)}`;
        throw new OverBudget(maxClientMemory - clientMemory <= 0 ? 'client memory' : 'agent memory', `runCase: no memory left for a case: ${whose}`);
      }
      hosted.memory = share;
      this.memory += share;
      return await run({ ...this.limits, maxSessions: 1, maxSessionsPerClient: 1, maxSessionMemory: share, maxClientMemory: share, maxAgentMemory: share });
    } finally {
      // closeAll may have given it back already
      if (this.sessions.delete(id)) this.memory -= hosted.memory;
    }
  }

  /** What all of `client`'s sessions hold (and have reserved), by the cost model. */
  private clientMemory(client: string): number {
    let memory = 0;
    for (const other of this.sessions.values()) if (other.client === client) memory += other.memory;
    return memory;
  }

  async close(id: number): Promise<void> {
    const hosted = this.sessions.get(id);
    if (hosted === undefined) return;
    this.sessions.delete(id);
    hosted.closed = true;
    this.memory -= hosted.memory;
    await hosted.session?.close();
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

  /** Who holds what, client by client, busiest first. */
  usage(): ClientUsage[] {
    const byClient = new Map<string, ClientUsage>();
    for (const hosted of this.sessions.values()) {
      const usage = byClient.get(hosted.client) ?? { client: hosted.client, sessions: 0, resources: 0, memory: 0, callsInFlight: 0 };
      usage.sessions++;
      usage.resources += hosted.resources.size;
      usage.memory += hosted.memory;
      usage.callsInFlight += hosted.inFlight;
      byClient.set(hosted.client, usage);
    }
    return [...byClient.values()].sort((a, b) => b.memory - a.memory || b.sessions - a.sessions);
  }

  /** A handle the session does not hold is refused here, never passed to the implementation (which might crash on it). */
  private checkHandles(hosted: Hosted, call: CallName, args: Record<string, unknown>): void {
    const check = (kind: string, handle: unknown) => {
      if (typeof handle === 'number' && !hosted.resources.has(`${kind}:${handle}`)) {
        throw new UnknownHandle(`${call}: this session holds no ${kind} ${handle} (never created, or destroyed)`);
      }
    };
    for (const [key, kind] of HANDLE_KINDS) check(kind, args[key]);
    const init = args.init as Record<string, unknown> | undefined;
    if (init !== undefined) for (const [key, kind] of INIT_HANDLE_KINDS) check(kind, init[key]);
  }

  private checkLimits(hosted: Hosted, call: CallName, args: Record<string, unknown>): void {
    const { limits } = this;
    if (CREATES[call] !== undefined && hosted.resources.size >= limits.maxResourcesPerSession) {
      throw new OverBudget('resources per session', `${call}: at most ${limits.maxResourcesPerSession} resources per session`);
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

  /** Takes a create's cost from the session's and the agent's memory budgets before it runs. */
  private reserve(hosted: Hosted, call: CallName, args: Record<string, unknown>): number {
    const cost = memoryCost(call, args, this.device);
    if (cost === 0) return 0;
    const { maxSessionMemory, maxClientMemory, maxAgentMemory } = this.limits;
    if (hosted.memory + cost > maxSessionMemory) {
      throw new OverBudget('session memory', `${call}: it would cost ${mib(cost)} and the session holds ${mib(hosted.memory)} of its ${mib(maxSessionMemory)}`);
    }
    const clientMemory = this.clientMemory(hosted.client);
    if (clientMemory + cost > maxClientMemory) {
      throw new OverBudget('client memory', `${call}: it would cost ${mib(cost)} and ${hosted.client}'s sessions hold ${mib(clientMemory)} of its ${mib(maxClientMemory)}`);
    }
    if (this.memory + cost > maxAgentMemory) {
      throw new OverBudget('agent memory', `${call}: it would cost ${mib(cost)} and all sessions hold ${mib(this.memory)} of the agent's ${mib(maxAgentMemory)}`);
    }
    hosted.memory += cost;
    this.memory += cost;
    return cost;
  }

  private unreserve(hosted: Hosted, cost: number): void {
    // a closed session's memory went back to the agent when it closed
    if (cost === 0 || hosted.closed) return;
    hosted.memory -= cost;
    this.memory -= cost;
  }

  /** Records a created resource (true: its reservation is kept) and forgets a destroyed one. */
  private account(hosted: Hosted, call: CallName, args: Record<string, unknown>, result: Record<string, unknown>, cost: number): boolean {
    const destroyed = DESTROYS[call];
    if (destroyed !== undefined && result.rawReturn === 0) {
      const key = `${destroyed}:${args[destroyed]}`;
      this.unreserve(hosted, hosted.resources.get(key) ?? 0);
      hosted.resources.delete(key);
    }
    const created = CREATES[call];
    if (created === undefined || result.rawReturn !== 0 || typeof result[created] !== 'number') return false;
    hosted.resources.set(`${created}:${result[created]}`, cost);
    return true;
  }
}
