import { appendFileSync, openSync, readSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { ANSWER_HEADER, type Hello, type RelayKind, decodeAnswerHeader, encodeRequest } from './relay-frames.js';

/**
 * Set for a process whose rvtc sessions go through the VM's relay (guest/relay/rvtc-relay.c): the
 * FIFO pair QEMU's relay port uses, `<base>.in` (to the guest) and `<base>.out` (from it).
 */
export const RELAY_ENV = 'RVT_CONFORM_RVTC_RELAY';
/** The host file the relay's kernel log records are appended to (the kernel log watch reads it). */
export const RELAY_KMSG_ENV = 'RVT_CONFORM_RVTC_RELAY_KMSG';
/** The guest's Hello (JSON), as the relay sent it when it was ready. */
export const RELAY_HELLO_ENV = 'RVT_CONFORM_RVTC_RELAY_HELLO';

/** The guest's Hello, when this process reaches rvtc through the relay. */
export function relayHello(): Hello | undefined {
  const text = process.env[RELAY_HELLO_ENV];
  return text === undefined ? undefined : (JSON.parse(text) as Hello);
}

/** How a relay's errno comes back: as the error Node's own system call would have thrown. */
function errnoError(status: number, what: string): NodeJS.ErrnoException {
  const code = Object.entries(constants.errno).find(([, n]) => n === -status)?.[0] ?? `errno ${-status}`;
  return Object.assign(new Error(`${code}: ${what} in the VM`), { code, errno: status });
}

/** Exactly `n` bytes from `fd`, or undefined when the stream ended first. */
function readExactly(fd: number, n: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(n);
  for (let got = 0; got < n; ) {
    const k = readSync(fd, buf, got, n - got, null);
    if (k === 0) return undefined;
    got += k;
  }
  return buf;
}

/**
 * The host's end of the relay, synchronous like /dev/rvtc itself: a request is written and its
 * answer read before `call` returns. An answer to an older request (one whose caller was killed
 * while the guest still worked on it) is read past. When the channel ends (QEMU exited: the
 * guest panicked, or was killed), `closed` runs: by default it throws RelayClosed.
 */
export class RelayChannel {
  private readonly toGuest: number;
  private readonly fromGuest: number;
  private nextId = 1;
  private nextSession = 1;

  constructor(
    base: string,
    private readonly kmsgFile: string | undefined,
    private readonly closed: (message: string) => never = (message) => {
      throw new RelayClosed(message);
    },
  ) {
    this.toGuest = openSync(`${base}.in`, 'w');
    this.fromGuest = openSync(`${base}.out`, 'r');
  }

  /** A session number of its own for a caller (each is one descriptor on /dev/rvtc in the guest). */
  newSession(): number {
    return this.nextSession++;
  }

  call(session: number, kind: RelayKind, payload: Uint8Array, what: string): Buffer {
    const id = this.nextId++;
    const frame = encodeRequest(id, session, kind, payload);
    try {
      for (let at = 0; at < frame.length; ) at += writeSync(this.toGuest, frame, at);
    } catch (error) {
      // Nobody reads the FIFO any more: QEMU is gone.
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') this.closed(`the VM's relay channel was closed before ${what}: the guest is down (its console log says why)`);
      throw error;
    }
    for (;;) {
      const header = readExactly(this.fromGuest, ANSWER_HEADER) ?? this.closed(`the VM's relay channel ended during ${what}: the guest is down (its console log says why)`);
      const answer = decodeAnswerHeader(header);
      const body = readExactly(this.fromGuest, answer.dataLength + answer.kmsgLength) ?? this.closed(`the VM's relay channel ended inside an answer to ${what}`);
      if (answer.kmsgLength > 0 && this.kmsgFile !== undefined) appendFileSync(this.kmsgFile, body.subarray(answer.dataLength));
      if (answer.id !== id) continue;
      if (answer.status < 0) throw errnoError(answer.status, what);
      return body.subarray(0, answer.dataLength);
    }
  }
}

export class RelayClosed extends Error {
  override name = 'RelayClosed';
}

let shared: RelayChannel | undefined;

/**
 * This process's channel to the relay, opened at first use, when RELAY_ENV names one; undefined
 * otherwise (rvtc is local). Its end is this process's: a worker whose guest went down has
 * nothing left to serve, and its parent reports the death as a crash with these last words.
 */
export function relayChannel(): RelayChannel | undefined {
  const base = process.env[RELAY_ENV];
  if (base === undefined) return undefined;
  shared ??= new RelayChannel(base, process.env[RELAY_KMSG_ENV], (message) => {
    process.stderr.write(`${message}\n`);
    process.exit(70);
  });
  return shared;
}
