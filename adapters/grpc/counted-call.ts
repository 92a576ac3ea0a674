import type * as grpc from '@grpc/grpc-js';

type Call = grpc.ServerInterceptingCallInterface;

/**
 * About the bytes a response message takes on the wire, without encoding it twice: its strings
 * (MR data as hex, u64 values) and bytes, and a few bytes for every other field.
 */
export function wireBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) {
    let n = 0;
    for (const item of value) n += wireBytes(item);
    return n;
  }
  if (value !== null && typeof value === 'object') {
    let n = 0;
    for (const field of Object.values(value)) n += 2 + wireBytes(field);
    return n;
  }
  return 8;
}

/** Reports an answer of `bytes` being written; the function it returns says it has been sent (or dropped). */
export type Sending = (bytes: number) => () => void;

/**
 * Writes `message` on a server stream, reporting it from the write until HTTP/2 has sent it: the
 * stream's buffer holds what its client does not read, however many are written.
 */
export function writeCounted(stream: { write(message: object, callback: () => void): boolean }, message: object, sending: Sending): void {
  stream.write(message, sending(wireBytes(message)));
}

/**
 * A unary call that reports its response from its write until HTTP/2 has sent it (the write's
 * callback), or the call is cancelled (grpc-js then drops it, uncalled back), so that what waits
 * for a client that does not read is counted. Everything else is the call's own: a thin delegate,
 * no interceptor chain in the path of the messages.
 */
export class CountedCall implements Call {
  private unsent: (() => void) | undefined;

  constructor(
    private readonly call: Call,
    private readonly sending: Sending,
  ) {}

  sendMessage(message: unknown, callback: () => void): void {
    const sent = this.sending(wireBytes(message));
    this.unsent = sent;
    this.call.sendMessage(message, () => {
      this.unsent = undefined;
      sent();
      callback();
    });
  }

  start(listener: Parameters<Call['start']>[0]): void {
    this.call.start({
      onReceiveMetadata: (metadata) => listener.onReceiveMetadata(metadata),
      onReceiveMessage: (message) => listener.onReceiveMessage(message),
      onReceiveHalfClose: () => listener.onReceiveHalfClose(),
      onCancel: () => {
        this.unsent?.();
        this.unsent = undefined;
        listener.onCancel();
      },
    });
  }
  sendMetadata(metadata: grpc.Metadata): void {
    this.call.sendMetadata(metadata);
  }
  sendStatus(status: Parameters<Call['sendStatus']>[0]): void {
    this.call.sendStatus(status);
  }
  startRead(): void {
    this.call.startRead();
  }
  getPeer(): string {
    return this.call.getPeer();
  }
  getDeadline(): grpc.Deadline {
    return this.call.getDeadline();
  }
  getHost(): string {
    return this.call.getHost();
  }
  getAuthContext(): ReturnType<Call['getAuthContext']> {
    return this.call.getAuthContext();
  }
  getConnectionInfo(): ReturnType<Call['getConnectionInfo']> {
    return this.call.getConnectionInfo();
  }
  getMetricsRecorder(): ReturnType<Call['getMetricsRecorder']> {
    return this.call.getMetricsRecorder();
  }
}
