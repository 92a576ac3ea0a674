import * as grpc from '@grpc/grpc-js';
import type { Session } from '../adapter.js';
import { type CallName, calls } from '../calls.js';
import { remoteSession } from '../remote/remote-session.js';
import { serviceError } from './status.js';
import { type Answer, beginRequest, decodeResponse, encodeRequest, endRequest, sessionMethod } from './stream-codec.js';

export interface StreamSessionOptions {
  client: grpc.Client;
  metadata: () => grpc.Metadata;
  /** The deadline of the opening and of each call. */
  timeoutMs: number;
  /** What a failed call (a gRPC status) means for the user: the client adapter's mapping. */
  failure: (error: unknown, call: string) => Error;
}

/** Sessions of one client adapter, each on a stream of its own; a stream whose session ended cleanly carries the next. */
export interface StreamSessions {
  open(): Promise<Session>;
  /** Ends the streams kept for a next session. */
  dispose(): Promise<void>;
}

interface Waiting {
  call: string;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Streams kept for a next session: as many as a few concurrent sessions need, each for less than the agent keeps one. */
const MAX_IDLE_STREAMS = 4;
const IDLE_STREAM_MS = 2_000;

const timedOut = (details: string) => serviceError({ code: grpc.status.DEADLINE_EXCEEDED, details });

/** One rpc Session stream: messages out with an id, answers matched back to them by id. */
class Carrier {
  private readonly stream: grpc.ClientDuplexStream<object, object>;
  private readonly pending = new Map<number, Waiting>();
  private nextId = 1;
  private death: Error | undefined;
  /** Settles when the agent has ended the stream (its session closed), whatever the status. */
  readonly ended: Promise<void>;
  /** The answer to the stream's opening (id 0): its first session. */
  readonly opening: Promise<Answer>;
  idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: StreamSessionOptions) {
    const { client, timeoutMs, failure } = options;
    this.stream = client.makeBidiStreamRequest(sessionMethod.path, sessionMethod.requestSerialize, sessionMethod.responseDeserialize, options.metadata());
    this.ended = new Promise((resolve) => this.stream.once('status', () => resolve()));
    this.opening = this.expect(0, 'openSession', `no session within ${timeoutMs} ms`);
    this.stream.on('data', (message: { [key: string]: unknown }) => {
      const answer = decodeResponse(message, (id) => this.pending.get(id)?.call as CallName | undefined);
      const waiting = this.pending.get(answer.id);
      if (waiting === undefined) return;
      this.pending.delete(answer.id);
      clearTimeout(waiting.timer);
      if (answer.kind === 'error') waiting.reject(failure(serviceError(answer), waiting.call));
      else waiting.resolve(answer);
    });
    this.stream.on('error', (error: grpc.ServiceError) => this.die(error));
    // An agent that ends the stream unasked is going away: infrastructure, not the device's doing.
    this.stream.on('end', () => this.die(serviceError({ code: grpc.status.UNAVAILABLE, details: 'the agent ended the session' })));
  }

  get alive(): boolean {
    return this.death === undefined;
  }

  private expect(id: number, call: string, late: string): Promise<Answer> {
    const answer = new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(this.options.failure(timedOut(late), call));
      }, this.options.timeoutMs);
      this.pending.set(id, { call, resolve, reject, timer });
    });
    return answer;
  }

  private die(error: unknown): void {
    const { failure } = this.options;
    this.death ??= failure(error, 'the session');
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      // a refused opening names the cause under its own name
      waiting.reject(waiting.call === 'openSession' ? failure(error, 'openSession') : this.death);
    }
    this.pending.clear();
  }

  cancel(): void {
    this.stream.cancel();
  }

  /** Sends one message and waits for the answer with its id. */
  send(encode: (id: number) => object, call: string): Promise<Answer> {
    if (this.death !== undefined) return Promise.reject(this.death);
    const id = this.nextId++;
    const answer = this.expect(id, call, `no answer within ${this.options.timeoutMs} ms`);
    this.stream.write(encode(id));
    return answer;
  }

  /** Ends the stream and waits for the agent to end it too (bounded by the deadline). */
  async finish(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.stream.end();
    const timer = setTimeout(() => this.stream.cancel(), this.options.timeoutMs);
    await this.ended.finally(() => clearTimeout(timer));
  }
}

/**
 * Sessions on the agent carried by streams (rpc Session): each call is a message with an id and
 * its answer a message with the same id, so a call costs one message each way instead of an
 * HTTP/2 stream of its own (about a fifth of the time on loopback). close() ends the session and
 * returns once the agent has destroyed what it held; the stream is then kept a moment for the next
 * session (`begin`), since opening a stream costs several calls' time.
 */
export function streamSessions(options: StreamSessionOptions): StreamSessions {
  const idle: Carrier[] = [];

  const park = (carrier: Carrier) => {
    if (idle.length >= MAX_IDLE_STREAMS) return carrier.finish();
    idle.push(carrier);
    carrier.idleTimer = setTimeout(() => {
      idle.splice(idle.indexOf(carrier), 1);
      void carrier.finish();
    }, IDLE_STREAM_MS);
    return Promise.resolve();
  };

  /** A stream with a fresh session: a kept one if it begins one, else a new one. */
  const carrier = async (): Promise<Carrier> => {
    for (let kept = idle.pop(); kept !== undefined; kept = idle.pop()) {
      clearTimeout(kept.idleTimer);
      try {
        await kept.send(beginRequest, 'openSession');
        return kept;
      } catch {
        // whatever the agent refused, a new stream's opening says it properly
        void kept.finish();
      }
    }
    const fresh = new Carrier(options);
    await fresh.opening.catch((error: unknown) => {
      fresh.cancel();
      throw error;
    });
    return fresh;
  };

  return {
    async open() {
      const on = await carrier();
      let closed = false;
      const invoke = async (call: CallName, args: unknown) => {
        // a session's calls never reach the stream's next session
        if (closed) throw options.failure(serviceError({ code: grpc.status.FAILED_PRECONDITION, details: 'the session is closed' }), call);
        // the request is checked before it leaves, by the same schema the agent checks it with
        const checked = calls[call].args.parse(args);
        const answer = await on.send((id) => encodeRequest(id, call, checked), call);
        return answer.kind === 'result' ? answer.result : undefined;
      };
      const close = async () => {
        if (closed) return;
        closed = true;
        if (!on.alive) return on.ended;
        try {
          await on.send(endRequest, 'closeSession');
        } catch {
          // an agent without `end` (or a stream that failed) closes the session with the stream
          return on.finish();
        }
        return park(on);
      };
      return remoteSession(invoke, close);
    },

    async dispose() {
      await Promise.all(idle.splice(0).map((kept) => kept.finish()));
    },
  };
}
