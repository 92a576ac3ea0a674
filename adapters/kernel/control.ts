import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { BatchS, NAME_LEN, Op, OpenReq, RVTC_MAGIC, RVTC_VERSION, ReqHdr, RespHdr } from './abi.js';
import { cString, fromCString } from './struct.js';
import { FIRST_READ, RelayKind } from './relay-frames.js';
import { type RelayChannel, relayChannel } from './relay-channel.js';

/** Where the rvtc module's misc device appears. */
export const CONTROL_DEVICE = '/dev/rvtc';

/** The module refused a request before any verb ran (bad input, unknown handle, ...). */
/**
 * How a refusal of rvtc's own reads, also once it crossed a worker as a step's error text: the
 * harness could not carry the request (an address no MR of the session covers, ...), which says
 * nothing of the driver.
 */
export const REFUSED = 'rvtc refused the request:';

export class KernelRefusal extends Error {
  override name = 'KernelRefusal';
  constructor(
    readonly op: number,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A request as written alone, header first: also a sub-request of a batch. */
export function frame(op: Op, payload: Buffer): Buffer {
  const header = ReqHdr.encode({ magic: RVTC_MAGIC, version: RVTC_VERSION, op, len: ReqHdr.size + payload.length });
  return payload.length === 0 ? header : Buffer.concat([header, payload]);
}

const align8 = (n: number) => (n + 7) & ~7;

/** The bytes one request takes inside a batch: framed, padded to a multiple of 8. */
export const subRequestSize = (payload: { length: number }) => align8(ReqHdr.size + payload.length);

/**
 * BATCH as written: its header, the count, then each request framed at multiples of 8 bytes,
 * each written once into the one buffer (a batch carries thousands of them).
 */
function batchRequest(requests: readonly { op: Op; payload: Buffer }[]): Buffer {
  const buf = Buffer.alloc(batchSize(requests));
  ReqHdr.write(buf, 0, { magic: RVTC_MAGIC, version: RVTC_VERSION, op: Op.BATCH, len: buf.length });
  BatchS.write(buf, ReqHdr.size, { count: requests.length, reserved: 0 });
  let at = ReqHdr.size + BatchS.size;
  for (const { op, payload } of requests) {
    ReqHdr.write(buf, at, { magic: RVTC_MAGIC, version: RVTC_VERSION, op, len: ReqHdr.size + payload.length });
    payload.copy(buf, at + ReqHdr.size);
    at += subRequestSize(payload);
  }
  return buf;
}

/** A BATCH's payload: the count, then each request framed, at multiples of 8 bytes. */
export function batchPayload(requests: readonly { op: Op; payload: Buffer }[]): Buffer {
  return batchRequest(requests).subarray(ReqHdr.size);
}

/** The bytes a batch of these requests takes on the wire, header included. */
export function batchSize(requests: readonly { payload: Buffer }[]): number {
  let size = ReqHdr.size + BatchS.size;
  for (const { payload } of requests) size += subRequestSize(payload);
  return size;
}

/** The payload of the response at `at` in `buf` (a response alone, or a sub-response of a batch), or throws its refusal. */
function answerOf(op: Op, buf: Buffer, at: number): Buffer {
  const answer = answerAt(op, buf, at);
  if (answer instanceof KernelRefusal) throw answer;
  return answer;
}

function answerAt(op: Op, buf: Buffer, at: number): Buffer | KernelRefusal {
  if (buf.length - at < RespHdr.size) throw new Error(`rvtc answered request ${op} with ${buf.length - at} bytes, less than a header`);
  const hdr = RespHdr.read(buf, at);
  if (hdr.len < RespHdr.size || at + hdr.len > buf.length) throw new Error(`rvtc's response to request ${op} says ${hdr.len} bytes; ${buf.length - at} came`);
  // a view: every buffer answers come in is the caller's own (exchange copies out of its scratch)
  const body = buf.subarray(at + RespHdr.size, at + hdr.len);
  // A refusal may name no request (op 0: the header itself was wrong).
  if (hdr.magic === RVTC_MAGIC && hdr.status < 0) return new KernelRefusal(op, hdr.status, `${REFUSED} ${fromCString(body)}`);
  if (hdr.magic !== RVTC_MAGIC || hdr.op !== op) {
    throw new Error(`rvtc answered request ${op} with a response to ${hdr.op} (magic 0x${hdr.magic.toString(16)})`);
  }
  return body;
}

/** Where a response header says its length (answerAt has checked it). */
const RESP_LEN = RespHdr.offsets.len as number;

/** Each sub-response of a BATCH's answer, matched to the request it answers. */
export function batchAnswers(requests: readonly { op: Op }[], body: Buffer): (Buffer | KernelRefusal)[] {
  const { count } = BatchS.read(body, 0);
  if (count > requests.length) throw new Error(`rvtc answered ${count} requests of a batch of ${requests.length}`);
  const answers: (Buffer | KernelRefusal)[] = [];
  let at = BatchS.size;
  for (let i = 0; i < count; i++) {
    answers.push(answerAt((requests[i] as { op: Op }).op, body, at));
    at += align8(body.readUInt32LE(at + RESP_LEN));
  }
  return answers;
}

/**
 * Where a session's requests go: /dev/rvtc in this kernel, or in the VM through its relay
 * (relay-channel.ts). A write, then the response in one or more reads, as the device answers.
 */
interface ControlPort {
  write(request: Buffer): void;
  read(into: Buffer, at: number, length: number): number;
  close(): void;
}

function localPort(path: string): ControlPort {
  const fd = openSync(path, 'r+');
  return {
    write: (request) => void writeSync(fd, request),
    read: (into, at, length) => readSync(fd, into, at, length, null),
    close: () => closeSync(fd),
  };
}

/** A session in the VM: a write and the first read are one round trip (the relay reads FIRST_READ at once). */
function relayPort(channel: RelayChannel): ControlPort {
  const session = channel.newSession();
  channel.call(session, RelayKind.open, Buffer.alloc(0), 'open /dev/rvtc');
  let written: Buffer | undefined;
  const length = Buffer.alloc(4);
  return {
    write: (request) => {
      written = request;
    },
    read: (into, at, max) => {
      let data: Buffer;
      if (written === undefined) {
        length.writeUInt32LE(max, 0);
        data = channel.call(session, RelayKind.read, length, 'read /dev/rvtc');
      } else {
        data = channel.call(session, RelayKind.exchange, written, 'write /dev/rvtc');
        written = undefined;
      }
      data.copy(into, at, 0, Math.min(max, data.length));
      return Math.min(max, data.length);
    },
    close: () => void channel.call(session, RelayKind.close, Buffer.alloc(0), 'close /dev/rvtc'),
  };
}

/**
 * One session of the rvtc module: a file descriptor on /dev/rvtc bound to one device (in the VM,
 * through the relay, when this process has one). Each request is one write(), its response one or
 * two read()s, synchronously: the module answers before write() returns, and a session serves one
 * request at a time anyway.
 */
export class KernelControl {
  private port: ControlPort | undefined;
  private readonly scratch = Buffer.alloc(FIRST_READ);

  constructor(device: string, path = CONTROL_DEVICE) {
    const channel = relayChannel();
    this.port = channel === undefined ? localPort(path) : relayPort(channel);
    try {
      this.request(Op.OPEN, OpenReq.encode({ device: cString(device, NAME_LEN) }));
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Sends one request; returns the response's payload, or throws KernelRefusal. */
  request(op: Op, payload: Buffer = Buffer.alloc(0)): Buffer {
    return answerOf(op, this.exchange(op, frame(op, payload)), 0);
  }

  /**
   * Sends sub-requests as one BATCH: the module runs them in order and stops after the first it
   * refuses. Returns, for each that ran, its payload or its KernelRefusal, in order.
   */
  batch(requests: readonly { op: Op; payload: Buffer }[]): (Buffer | KernelRefusal)[] {
    const body = answerOf(Op.BATCH, this.exchange(Op.BATCH, batchRequest(requests)), 0);
    return batchAnswers(requests, body);
  }

  close(): void {
    if (this.port === undefined) return;
    const port = this.port;
    this.port = undefined;
    port.close();
  }

  /** One write, then the whole response (header included) in one or two reads. */
  private exchange(op: Op, request: Buffer): Buffer {
    const port = this.descriptor();
    port.write(request);
    let got = port.read(this.scratch, 0, this.scratch.length);
    if (got < RespHdr.size) throw new Error(`rvtc answered request ${op} with ${got} bytes, less than a header`);
    const hdr = RespHdr.read(this.scratch, 0);
    if (hdr.len <= got) return Buffer.from(this.scratch.subarray(0, hdr.len));
    const whole = Buffer.alloc(hdr.len);
    this.scratch.copy(whole, 0, 0, got);
    while (got < hdr.len) got += port.read(whole, got, hdr.len - got);
    return whole;
  }

  private descriptor(): ControlPort {
    if (this.port === undefined) throw new Error('the rvtc session is closed');
    return this.port;
  }
}
