/**
 * The relay's frames: how a host process reaches /dev/rvtc in the VM through a virtio-serial port
 * (guest/relay/rvtc-relay.c on the guest side, relay-channel.ts on the host's). The host keeps the
 * harness, the model and rvtc's request encoding, which run many times faster there than under
 * TCG; the guest only copies bytes between the port and the device. No imports: the relay starts
 * in a guest, where every module costs emulated time.
 *
 * A request: id, session, kind and the payload's length (u32 each, little-endian), then the
 * payload. An answer: the request's id, a status (0, or minus the errno of the failed system
 * call), the data's length and the kernel log's (the /dev/kmsg records logged since the previous
 * answer, as read), then both.
 */
export const RelayKind = {
  /** Opens /dev/rvtc for `session`. */
  open: 1,
  /** Writes the payload to the session's descriptor, then reads once (up to FIRST_READ bytes). */
  exchange: 2,
  /** Reads up to the payload's u32 of bytes more from the session's descriptor. */
  read: 3,
  close: 4,
  /** The relay answers, then exits: the VM powers off. */
  quit: 5,
} as const;
export type RelayKind = (typeof RelayKind)[keyof typeof RelayKind];

/** What the relay reads of a response at once (KernelControl's first read): most fit, a larger one is read in a second step. */
export const FIRST_READ = 64 * 1024;

export const REQUEST_HEADER = 16;
export const ANSWER_HEADER = 16;
/** The id of the answer the relay sends unasked when it is ready: its data is the guest's Hello (JSON). */
export const HELLO_ID = 0;

/** What the guest says of itself before the first request: what the host's adapter info reports. */
export interface Hello {
  /** The guest's uname -r. */
  release: string;
  /** Which rdmavt.ko is loaded there (rdmavt-module.ts). */
  rdmavt: string;
}

export function encodeRequest(id: number, session: number, kind: RelayKind, payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(REQUEST_HEADER + payload.length);
  frame.writeUInt32LE(id, 0);
  frame.writeUInt32LE(session, 4);
  frame.writeUInt32LE(kind, 8);
  frame.writeUInt32LE(payload.length, 12);
  frame.set(payload, REQUEST_HEADER);
  return frame;
}

export interface RequestHeader {
  id: number;
  session: number;
  kind: number;
  length: number;
}

export function decodeRequestHeader(header: Buffer): RequestHeader {
  return { id: header.readUInt32LE(0), session: header.readUInt32LE(4), kind: header.readUInt32LE(8), length: header.readUInt32LE(12) };
}

export function encodeAnswer(id: number, status: number, data: Uint8Array, kmsg: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(ANSWER_HEADER + data.length + kmsg.length);
  frame.writeUInt32LE(id, 0);
  frame.writeInt32LE(status, 4);
  frame.writeUInt32LE(data.length, 8);
  frame.writeUInt32LE(kmsg.length, 12);
  frame.set(data, ANSWER_HEADER);
  frame.set(kmsg, ANSWER_HEADER + data.length);
  return frame;
}

export interface AnswerHeader {
  id: number;
  status: number;
  dataLength: number;
  kmsgLength: number;
}

export function decodeAnswerHeader(header: Buffer): AnswerHeader {
  return { id: header.readUInt32LE(0), status: header.readInt32LE(4), dataLength: header.readUInt32LE(8), kmsgLength: header.readUInt32LE(12) };
}
