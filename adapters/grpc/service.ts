import * as grpc from '@grpc/grpc-js';
import { AdapterInfo, type CaseHost, type CaseWatch, watched } from '../adapter.js';
import type { CallName } from '../calls.js';
import { InvalidRequest, OverBudget } from '../remote/refusals.js';
import { fromWire } from '../remote/wire.js';
import type { SessionHost } from '../remote/session-host.js';
import { clientOf } from './connections.js';
import { type Lease, Leases } from './leases.js';
import { sessionOf, tokenMatches } from './metadata.js';
import { type CallMethod, callMethods, infoMethod } from './methods.js';
import { Undecodable } from './request-bound.js';
import { writeCounted } from './counted-call.js';
import type { RefusalLog } from './refusal-log.js';
import { encodeEnd, runCasesMethod } from './run-case.js';
import { StatusError, serviceError, statusName, statusOf } from './status.js';
import { decodeRequest, encodeError, encodeResult, ended, opened, type Received } from './stream-codec.js';
import { type AgentUsage, usageMethod } from './usage.js';

export interface ServiceOptions {
  host: SessionHost;
  /** When set, every call must carry it as a bearer token; nothing runs before it is checked. */
  token: string | undefined;
  /** Receives one line per call: session, call, status, milliseconds (none are made without it). */
  log: ((line: string) => void) | undefined;
  /** Receives one line per refusal over a budget, always (the operator's evidence of a hostile or greedy client). */
  notice: (line: string) => void;
  /** Bounds the lines about refused calls (both the log's and the notices): a flood of them is summed up. */
  refusals: RefusalLog;
  /** Counts an answer written on the connection `peer` until it is sent (see ConnectionGuard.sending). */
  sending: (peer: string, bytes: number) => () => void;
  /** Counts a large answer from the start of its call; undefined when its connection was closed for it, why not when refused (see ConnectionGuard.reserve). */
  reserve: (peer: string, bytes: number) => (() => void) | string | undefined;
  /** Counts a large request while its call runs; why not, when over budget (see ConnectionGuard.admitRequest). */
  admitRequest: (peer: string, bytes: number) => (() => void) | string;
  /** The operator's view, for the Usage rpc. */
  usage: () => AgentUsage;
  /** The built-in cases it runs for its clients (rpc RunCases); none without. */
  cases?: AgentCases | undefined;
  /**
   * The adapter's watch of this machine (its kernel log), read at each case: a splat while a
   * hosted case ran goes back with the case's end, since no client can read this machine's log.
   */
  watch?: (() => CaseWatch | undefined) | undefined;
}

/** The built-in cases an agent runs (rpc RunCases): given by its command, since the cases live above the adapters. */
export interface AgentCases {
  /** What is wrong with a case or probe request (its shape, a case that does not exist), or undefined. */
  problem(request: unknown): string | undefined;
  /** Where they run: in the adapter's workers, one case a worker at a time, or in this process. */
  host: CaseHost;
}

/** Cases a stream may have waiting behind the one running (a client writes one ahead), each request at most MAX_CASE_REQUEST_CHARS. */
export const MAX_WAITING_CASES = 8;

/** The longest a case may take on the agent whatever its client asks: a client's budget is 3 times its case timeout. */
export const MAX_CASE_BUDGET_MS = 30 * 60_000;

/** One call in progress, for its log line. */
interface Record {
  session: number | undefined;
  call: string;
  /** Logs the end; once per start, except that a failure is always logged. */
  end(status: { code: grpc.status; details?: string }): void;
  /** Starts the record again, for the next session on a session stream. */
  restart(session: number): void;
}

/** How long a session stream may stay open without a session: a client that reuses it begins the next at once. */
export const STREAM_BETWEEN_MS = 10_000;

/** Why a session stream's message was not served: a call with no session, an end without one, a begin beside one. */
function misplaced(kind: Received['kind'], holding: boolean): { code: grpc.status; details: string } {
  if (kind === 'unknown') return { code: grpc.status.INVALID_ARGUMENT, details: 'a SessionRequest that names no call this agent knows' };
  if (kind === 'begin') return { code: grpc.status.FAILED_PRECONDITION, details: holding ? 'this stream holds a session already: end it first' : 'this stream is ending' };
  return { code: grpc.status.NOT_FOUND, details: 'this stream holds no session (it ended): begin one first' };
}

/**
 * What a request to `call` holds while it runs, of the large ones: a WriteMr's hex twice (the
 * string, and the message it was decoded from, until collected; its bytes, half as many, are the
 * MR's). 0 for the small ones.
 */
export function requestBytes(call: CallName, args: unknown): number {
  if (call !== 'writeMr') return 0;
  const data = (args as { data?: unknown } | null)?.data;
  return typeof data === 'string' ? 2 * data.length : 0;
}

/**
 * The copies of a large answer that exist at once while its call runs: its hex, the encoded
 * message and grpc-js' framed copy of that. Measured: a 16 MiB ReadMr (32 MiB of hex) took the
 * agent's RSS 96 MiB up at its peak; counted twice, one call held 32 MiB more than its room.
 */
export const ANSWER_COPIES = 3;

/** The bytes an answer to `call` takes on the wire, known before it is built: a ReadMr's hex (at most the MR limit's); 0 for the small ones. */
export function answerBytes(call: CallName, args: unknown, maxMrBytes: number): number {
  if (call !== 'readMr') return 0;
  const length = (args as { length?: unknown } | null)?.length;
  return typeof length === 'number' && length > 0 ? 2 * Math.min(length, maxMrBytes) : 0;
}

type Unary = grpc.handleUnaryCall<object, object>;
type Streaming = grpc.handleServerStreamingCall<object, object>;

/**
 * The Agent service over a SessionHost: each client's sessions are its own (a session stream, or
 * a lease stream named by a secret for the unary rpcs), every request and response goes through
 * the call table's schemas (the host validates and applies its budgets; the codecs convert), and a
 * bad request fails only that call.
 */
export function agentImplementation(options: ServiceOptions): grpc.UntypedServiceImplementation {
  const { host, token, log, notice, refusals, sending, reserve, admitRequest, usage, cases, watch } = options;
  const leases = new Leases(host);

  const record = (call: string, peer: string): Record => {
    let started = performance.now();
    let ended = false;
    const rec: Record = {
      session: undefined,
      call,
      end: ({ code, details }) => {
        if (ended && code === grpc.status.OK) return;
        ended = true;
        const overBudget = code === grpc.status.RESOURCE_EXHAUSTED;
        const refused = overBudget || code === grpc.status.UNAUTHENTICATED;
        if (refused && (log !== undefined || overBudget) && !refusals.admit(clientOf(peer))) return;
        log?.(`session=${rec.session ?? '-'} call=${rec.call} status=${statusName(code)} ms=${(performance.now() - started).toFixed(1)}`);
        if (overBudget) notice(`refused client=${clientOf(peer)} session=${rec.session ?? '-'} call=${rec.call}: ${details ?? ''}`);
      },
      restart: (session) => {
        rec.session = session;
        started = performance.now();
        ended = false;
      },
    };
    return rec;
  };

  const authorise = (metadata: grpc.Metadata) => {
    if (token !== undefined && !tokenMatches(token, metadata)) {
      throw new StatusError(grpc.status.UNAUTHENTICATED, 'this agent needs its token: pass it as "authorization: Bearer <token>"');
    }
  };

  const leaseOf = (metadata: grpc.Metadata, rec: Record): Lease => {
    const session = sessionOf(metadata);
    const lease = session === undefined ? undefined : leases.get(session);
    if (lease === undefined) throw new StatusError(grpc.status.NOT_FOUND, 'no open session by that name: it was closed or its lease ended; open one with OpenSession');
    rec.session = lease.id;
    return lease;
  };

  /**
   * Holds room for a large answer (a ReadMr's) while its call runs: counted before the agent
   * reads the MR, so that a client that does not read its answers cannot have more of them built
   * than its budget holds. ANSWER_COPIES times its wire size: what one call was measured to hold.
   */
  const holdAnswer = (peer: string, call: CallName, args: unknown): (() => void) => {
    const bytes = answerBytes(call, args, host.limits.maxMrBytes);
    if (bytes === 0) return () => undefined;
    const release = reserve(peer, ANSWER_COPIES * bytes);
    if (release === undefined) throw new StatusError(grpc.status.CANCELLED, 'its connection was closed: its client does not read its answers');
    if (typeof release === 'string') throw new OverBudget('unsent answers', `${call}: ${release}`);
    let released = false;
    return () => {
      if (!released) release();
      released = true;
    };
  };

  /**
   * Holds room for a call's large request and its large answer while it runs (the answer's until
   * it is written, when writeCounted takes over); refused RESOURCE_EXHAUSTED when the request does not fit.
   */
  const holdCall = (peer: string, call: CallName, args: unknown): (() => void) => {
    const bytes = requestBytes(call, args);
    const request = bytes === 0 ? () => undefined : admitRequest(peer, bytes);
    if (typeof request === 'string') throw new OverBudget('requests and unsent answers', `${call}: ${request}`);
    try {
      const answer = holdAnswer(peer, call, args);
      return () => {
        answer();
        request();
      };
    } catch (error) {
      request();
      throw error;
    }
  };

  const refuseUndecodable = (request: unknown) => {
    if (request instanceof Undecodable) throw request.refusal;
  };

  /**
   * Runs a call: credentials first, nothing else before them; then the work. Its end goes to the
   * log and to the client: `ok` answers and says with which status, `fail` sends the error status.
   */
  const serve = <T>(
    call: string,
    serverCall: grpc.ServerUnaryCall<object, object> | grpc.ServerWritableStream<object, object> | grpc.ServerDuplexStream<object, object>,
    work: (rec: Record) => Promise<T>,
    end: { ok(value: T): grpc.status; fail(status: { code: grpc.status; details: string }): void },
  ) => {
    const rec = record(call, serverCall.getPeer());
    Promise.resolve()
      .then(() => {
        authorise(serverCall.metadata);
        if ('request' in serverCall) refuseUndecodable(serverCall.request);
        return work(rec);
      })
      .then(
        (value) => rec.end({ code: end.ok(value) }),
        (error: unknown) => {
          const status = statusOf(error);
          rec.end(status);
          end.fail(status);
        },
      );
  };

  const unary =
    (call: string, work: (request: object, metadata: grpc.Metadata, rec: Record, peer: string) => Promise<object>): Unary =>
    (serverCall, callback) =>
      serve(call, serverCall, (rec) => work(serverCall.request, serverCall.metadata, rec, serverCall.getPeer()), {
        ok: (response) => {
          callback(null, response);
          return grpc.status.OK;
        },
        fail: (status) => callback(status),
      });

  /** A server stream ends normally (OK), is cancelled by its client, or ends with an error status. */
  const streamEnd = (serverCall: grpc.ServerWritableStream<object, object> | grpc.ServerDuplexStream<object, object>) => ({
    ok: (code: grpc.status) => {
      if (code === grpc.status.OK) serverCall.end();
      return code;
    },
    fail: (status: { code: grpc.status; details: string }) => serverCall.emit('error', serviceError(status)),
  });

  const verb = (call: CallName, method: CallMethod): Unary =>
    unary(call, async (request, metadata, rec, peer) => {
      const lease = leaseOf(metadata, rec);
      // before decoding, whose cost grows with the list
      host.checkPostSize(call, request);
      const args = method.request.decode(request);
      const held = holdCall(peer, call, args);
      try {
        return method.response.encode(await host.call(lease.id, call, args));
      } finally {
        held();
      }
    });

  /** A call whose result list is streamed: one message per element, then the end. */
  const streamedVerb =
    (call: CallName, method: CallMethod, key: string): Streaming =>
    (serverCall) =>
      serve(
        call,
        serverCall,
        async (rec) => {
          const result = await host.call(leaseOf(serverCall.metadata, rec).id, call, method.request.decode(serverCall.request));
          const peer = serverCall.getPeer();
          for (const item of (result as { [key: string]: unknown[] })[key] ?? []) writeCounted(serverCall, method.response.encode(item), (bytes) => sending(peer, bytes));
          return grpc.status.OK;
        },
        streamEnd(serverCall),
      );

  /**
   * The lease: the session lives while this stream is open. It ends with CloseSession (OK), or
   * when the client cancels or disappears (CANCELLED), and either way the session is destroyed.
   */
  const openSession: Streaming = (serverCall) =>
    serve(
      'openSession',
      serverCall,
      async (rec) => {
        const lease = await leases.grant(clientOf(serverCall.getPeer()));
        rec.session = lease.id;
        serverCall.on('cancelled', () => void leases.release(lease.name));
        // the client may have left while the session was being opened
        if (serverCall.cancelled) await leases.release(lease.name);
        else serverCall.write({ session: lease.name });
        await lease.released;
        return serverCall.cancelled ? grpc.status.CANCELLED : grpc.status.OK;
      },
      streamEnd(serverCall),
    );

  /** One call of a session stream: answered with its id, logged as a unary call is. */
  const answerCall = async (session: number, peer: string, id: number, call: CallName, args: unknown, answer: (message: object) => void) => {
    const rec = record(call, peer);
    rec.session = session;
    let held = () => {};
    try {
      held = holdCall(peer, call, args);
      const message = encodeResult(id, call, await host.call(session, call, args));
      // written, the answer is counted until it is sent (writeCounted), in the room it held
      held();
      answer(message);
      rec.end({ code: grpc.status.OK });
    } catch (error) {
      held();
      const status = statusOf(error);
      answer(encodeError(id, status));
      rec.end(status);
    }
  };

  /** Streams that hold no session (between `end` and `begin`), per client address: a client may keep as many as it may hold sessions. */
  const between = new Map<string, number>();
  const count = (client: string, by: number) => {
    const n = (between.get(client) ?? 0) + by;
    if (n === 0) between.delete(client);
    else between.set(client, n);
  };

  /**
   * A session on one stream (the client's transport): the stream's opening opens it, each message
   * is one call, answered with its id as soon as it is done, and the client's end of the stream
   * (or a cancel, or a vanished client) closes it. `end` closes the session and keeps the stream
   * for a next one, which `begin` opens: a new stream costs several times a call. A stream without
   * a session is ended after STREAM_BETWEEN_MS, or at once when its client already holds as many
   * such streams as it may hold sessions. A message that cannot be decoded (too large:
   * RESOURCE_EXHAUSTED; malformed: INVALID_ARGUMENT) ends the stream, since its id cannot be read.
   */
  const session: grpc.handleBidiStreamingCall<object, object> = (stream) =>
    serve(
      'session',
      stream,
      async (rec) => {
        const peer = stream.getPeer();
        const client = clientOf(peer);
        let lease: Lease | undefined = await leases.grant(client);
        rec.session = lease.id;
        let refusal: Undecodable | undefined;
        let waiting: NodeJS.Timeout | undefined;
        let finished = false;
        let finish = () => {};
        const done = new Promise<void>((resolve) => {
          finish = resolve;
        });
        const answer = (message: object) => {
          if (!stream.cancelled && !stream.writableEnded) writeCounted(stream, message, (bytes) => sending(peer, bytes));
        };
        // ends, begins and the stream's own end run one after another, each on the state the one before left
        let ops = Promise.resolve();
        const control = (op: () => Promise<void>) => {
          ops = ops.then(op).catch(() => undefined);
        };
        const stopWaiting = () => {
          if (waiting === undefined) return;
          clearTimeout(waiting);
          waiting = undefined;
          count(client, -1);
        };
        /** The stream is over: its session (if it holds one) is closed, then the stream ends. */
        const release = () => {
          if (finished) return;
          finished = true;
          control(async () => {
            stopWaiting();
            const held = lease;
            lease = undefined;
            if (held !== undefined) await leases.release(held.name);
            finish();
          });
        };
        const endSession = async (id: number) => {
          const held = lease;
          if (held === undefined) return answer(encodeError(id, misplaced('end', false)));
          lease = undefined;
          await leases.release(held.name);
          rec.end({ code: grpc.status.OK });
          rec.session = undefined;
          answer(ended(id));
          if (finished) return;
          if ((between.get(client) ?? 0) >= host.limits.maxSessionsPerClient) return release();
          count(client, 1);
          waiting = setTimeout(release, STREAM_BETWEEN_MS);
        };
        const beginSession = async (id: number) => {
          if (lease !== undefined || finished) return answer(encodeError(id, misplaced('begin', lease !== undefined)));
          stopWaiting();
          try {
            lease = await leases.grant(client);
            rec.restart(lease.id);
            answer(opened(id));
          } catch (error) {
            const status = statusOf(error);
            record('session', peer).end(status);
            answer(encodeError(id, status));
            release();
          }
        };
        stream.on('cancelled', release);
        stream.on('end', release);
        stream.on('data', (message: object) => {
          if (message instanceof Undecodable) {
            refusal = message;
            release();
            return;
          }
          const request = decodeRequest(message as { [key: string]: unknown });
          if (request.kind === 'end') control(() => endSession(request.id));
          else if (request.kind === 'begin') control(() => beginSession(request.id));
          else if (request.kind === 'call' && lease !== undefined) void answerCall(lease.id, peer, request.id, request.call, request.args, answer);
          else {
            const status = misplaced(request.kind, false);
            const refused = record(request.kind === 'call' ? request.call : 'session', peer);
            refused.end(status);
            answer(encodeError(request.id, status));
          }
        });
        // the client may have left while the session was being opened
        if (stream.cancelled) release();
        else answer(opened(0));
        await done;
        refuseUndecodable(refusal);
        return stream.cancelled ? grpc.status.CANCELLED : grpc.status.OK;
      },
      streamEnd(stream),
    );

  /**
   * One case (or probe) of a RunCases stream, run where the adapter runs (its worker) within the
   * budgets hostCase grants the client, answered with its id; logged as a call of its own.
   */
  const runOneCase = async ({ id, parsed }: ReturnType<typeof runCasesMethod.decodeRequest>, peer: string, signal: AbortSignal): Promise<object> => {
    const rec = record('runCase', peer);
    try {
      if (cases === undefined) throw new StatusError(grpc.status.UNIMPLEMENTED, 'this agent runs no cases: its clients run them verb by verb');
      if (!parsed.success) throw new InvalidRequest(`runCase: ${parsed.error.message}`);
      let request: unknown;
      try {
        request = fromWire(parsed.data.request);
      } catch (error) {
        throw new InvalidRequest(`runCase: the request is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      const problem = cases.problem(request);
      if (problem !== undefined) throw new InvalidRequest(`runCase: ${problem}`);
      const named = request as { id?: string; probe?: string };
      rec.call = `runCase(${named.id ?? `probe ${named.probe ?? ''}`})`;
      const budgetMs = Math.min(parsed.data.budgetMs, MAX_CASE_BUDGET_MS);
      const { value: end, finding } = await watched(watch?.(), () => host.hostCase(clientOf(peer), (limits) => cases.host.runCase({ ...(request as object), limits }, budgetMs, signal)));
      if (end.kind === 'declined') throw new StatusError(grpc.status.UNIMPLEMENTED, "this agent's adapter runs no cases: its clients run them verb by verb");
      rec.end({ code: grpc.status.OK });
      return runCasesMethod.encodeResponse({ id, end: encodeEnd(finding === undefined ? end : { ...end, finding }) });
    } catch (error) {
      const status = statusOf(error);
      rec.end(status);
      return runCasesMethod.encodeResponse({ id, code: status.code, details: status.details });
    }
  };

  /**
   * A client's cases on one stream: each message a case, run one after another in the order they
   * came (a client writes its next case while one runs, to save the round trip between them), each
   * answered as soon as it ends. The client's end of the stream waits for the cases written; a
   * cancel (or a vanished client) aborts the one running and drops the rest, and workers are killed.
   */
  const runCases: grpc.handleBidiStreamingCall<object, object> = (stream) =>
    serve(
      'runCases',
      stream,
      async () => {
        const peer = stream.getPeer();
        const abort = new AbortController();
        // the stream's cases in turn: each starts when the one before has been answered
        let queue = Promise.resolve();
        let waiting = 0;
        let refusal: Undecodable | undefined;
        let finish = () => {};
        const over = new Promise<void>((resolve) => {
          finish = resolve;
        });
        stream.on('cancelled', () => {
          abort.abort();
          finish();
        });
        stream.on('end', () => finish());
        stream.on('data', (message: object) => {
          // not decoded, so its id is unknown: the stream ends, as a session stream does
          if (message instanceof Undecodable) {
            refusal = message;
            abort.abort();
            finish();
            return;
          }
          const answer = (response: object) => {
            if (!stream.cancelled && !stream.writableEnded) writeCounted(stream, response, (bytes) => sending(peer, bytes));
          };
          // decoded now, so a waiting case holds its validated request (at most MAX_CASE_REQUEST_CHARS), not the message
          const decoded = runCasesMethod.decodeRequest(message);
          if (waiting >= MAX_WAITING_CASES) {
            const { id } = decoded;
            const details = `${MAX_WAITING_CASES} cases of this stream are waiting their turn already: write the next when one is answered`;
            record('runCase', peer).end({ code: grpc.status.RESOURCE_EXHAUSTED, details });
            answer(runCasesMethod.encodeResponse({ id, code: grpc.status.RESOURCE_EXHAUSTED, details }));
            return;
          }
          waiting++;
          queue = queue
            .then(async () => {
              waiting--;
              if (!abort.signal.aborted) answer(await runOneCase(decoded, peer, abort.signal));
            })
            // runOneCase answers every failure itself; anything else must not stop the stream's later cases
            .catch((error: unknown) => answer(runCasesMethod.encodeResponse({ id: decoded.id, code: grpc.status.INTERNAL, details: String(error) })));
        });
        await over;
        await queue;
        refuseUndecodable(refusal);
        return stream.cancelled ? grpc.status.CANCELLED : grpc.status.OK;
      },
      streamEnd(stream),
    );

  // keyed by the rpcs' lower-camel names, which grpc-js accepts as well as the proto names
  const implementation: grpc.UntypedServiceImplementation = {
    info: unary('info', async () => infoMethod.response.encode(AdapterInfo.parse(await host.info()))),
    openSession,
    session,
    usage: unary('usage', async () => usageMethod.response.encode(usage())),
    runCases,
    closeSession: unary('closeSession', async (_request, metadata, rec) => {
      await leases.release(leaseOf(metadata, rec).name);
      return {};
    }),
  };
  for (const [call, method] of Object.entries(callMethods) as [CallName, CallMethod][]) {
    implementation[call] = method.streamed === undefined ? verb(call, method) : streamedVerb(call, method, method.streamed);
  }
  return implementation;
}
