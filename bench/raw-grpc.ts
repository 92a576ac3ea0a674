import { status as grpcStatus } from '@grpc/grpc-js';
import * as http2 from 'node:http2';
import { connect as tcpConnect } from 'node:net';
import type { CallName } from '../adapters/calls.js';
import { type Answer, decodeResponse, encodeRequest, sessionMethod } from '../adapters/grpc/stream-codec.js';

/**
 * A gRPC client on bare HTTP/2, for the attack bench: grpc-js cannot choose its source address
 * (the bench's clients come from 127.0.0.2 and up, loopback takes the whole 127/8), nor stop
 * reading a stream while it keeps writing, nor send a message that is not protobuf.
 */

export const HEALTH_CHECK = '/grpc.health.v1.Health/Check';

/** A gRPC message on the wire: a flag byte (uncompressed), its length, its bytes. */
export function grpcFrame(message: Buffer, length = message.length): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(length, 1);
  return Buffer.concat([head, message]);
}

/** An HTTP/2 connection from `localAddress` to the agent; rejects when it cannot connect. */
export function connectFrom(target: string, localAddress: string): Promise<http2.ClientHttp2Session> {
  const [host = '127.0.0.1', port = '0'] = target.split(':');
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${target}`, {
      createConnection: () => tcpConnect({ host, port: Number(port), localAddress }).on('error', () => undefined),
    });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
    // an agent that closes the connection is an answer, not a crash of the bench
    session.on('error', () => undefined);
  });
}

/** What a stream ended with: its grpc-status (or "reset", when it was refused or reset before trailers). */
export function streamStatus(stream: http2.ClientHttp2Stream): Promise<string> {
  return new Promise((resolve) => {
    let status: string | undefined;
    const take = (headers: http2.IncomingHttpHeaders) => {
      const s = headers['grpc-status'];
      if (s !== undefined) status = String(s);
    };
    stream.on('response', take);
    stream.on('trailers', take);
    stream.on('error', () => undefined);
    stream.once('close', () => resolve(status ?? 'reset'));
  });
}

/** Opens an rpc's stream, with the token when given. */
export function openStream(session: http2.ClientHttp2Session, path: string, token?: string): http2.ClientHttp2Stream {
  const headers: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const stream = session.request(headers);
  stream.on('error', () => undefined);
  return stream;
}

/** A session stream (rpc Session) on a bare connection: calls by id, answers parsed as they come (until `stopReading`). */
export class RawSession {
  private nextId = 1;
  private chunks: Buffer[] = [];
  private length = 0;
  private readonly waiting = new Map<number, { call: CallName | undefined; resolve: (a: Answer) => void }>();
  readonly status: Promise<string>;
  readonly opened: Promise<Answer>;

  constructor(readonly stream: http2.ClientHttp2Stream) {
    this.status = streamStatus(stream);
    this.opened = this.expect(0, undefined);
    stream.on('data', (chunk: Buffer) => this.take(chunk));
    // a stream that ends answers nothing more: whoever waits learns it as an error
    void this.status.then((status) => {
      for (const w of this.waiting.values()) w.resolve({ id: -1, kind: 'error', code: grpcStatus.UNAVAILABLE, details: `stream ended ${status}` });
      this.waiting.clear();
    });
  }

  static open(session: http2.ClientHttp2Session, token: string | undefined): RawSession {
    return new RawSession(openStream(session, sessionMethod.path, token));
  }

  /** Writes a call and resolves with its answer. */
  call(call: CallName, args: unknown): Promise<Answer> {
    const id = this.nextId++;
    const answer = this.expect(id, call);
    this.send(call, args, id);
    return answer;
  }

  /** Writes a call nobody will wait for; false when the stream's buffer is full (HTTP/2 backpressure). */
  send(call: CallName, args: unknown, id = this.nextId++): boolean {
    if (this.stream.destroyed) return false;
    return this.stream.write(grpcFrame(sessionMethod.requestSerialize(encodeRequest(id, call, args))));
  }

  /** Stops taking answers: HTTP/2 stops opening the stream's window, and the agent's answers wait on its side. */
  stopReading(): void {
    this.stream.pause();
  }

  private expect(id: number, call: CallName | undefined): Promise<Answer> {
    return new Promise((resolve) => this.waiting.set(id, { call, resolve }));
  }

  private take(chunk: Buffer): void {
    // chunks kept apart until a message is whole: joining each to the rest was quadratic for a 32 MiB answer
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      if (this.length < 5) return;
      if (this.chunks.length > 1 && (this.chunks[0]?.length ?? 0) < 5) this.chunks = [Buffer.concat(this.chunks)];
      const size = (this.chunks[0] as Buffer).readUInt32BE(1);
      if (this.length < 5 + size) return;
      const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
      const message = sessionMethod.responseDeserialize(all.subarray(5, 5 + size)) as Record<string, unknown>;
      const rest = all.subarray(5 + size);
      this.chunks = rest.length === 0 ? [] : [rest];
      this.length = rest.length;
      const answer = decodeResponse(message, (id) => this.waiting.get(id)?.call);
      const w = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      w?.resolve(answer);
    }
  }
}

/** The handle a create call's result names (`pd`, `mr`, ...), or undefined when it failed. */
export function handleOf(answer: Answer, key: string): number | undefined {
  if (answer.kind !== 'result') return undefined;
  const value = (answer.result as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : undefined;
}
