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

/**
 * A server call that reports each response message it writes and when HTTP/2 has sent it (its
 * write callback), so that what waits for a client that does not read is counted. Everything else
 * is the call's own: a thin delegate, no interceptor chain in the path of the messages.
 */
export class CountedCall implements Call {
  constructor(
    private readonly call: Call,
    private readonly sending: (bytes: number) => () => void,
  ) {}

  sendMessage(message: unknown, callback: () => void): void {
    const sent = this.sending(wireBytes(message));
    this.call.sendMessage(message, () => {
      sent();
      callback();
    });
  }

  start(listener: Parameters<Call['start']>[0]): void {
    this.call.start(listener);
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
