/**
 * `node dist/guest/rvtc-relay.js [--stall-knobs] [--in PATH --out PATH] [--control PATH] [--kmsg PATH]`:
 * runs in the VM and carries the host's rvtc sessions (adapters/kernel/relay-frames.ts): each
 * request read from the relay's virtio-serial port is done on /dev/rvtc, and its answer, with the
 * kernel log records logged meanwhile, written back. Everything else (the harness, the model,
 * rvtc's request encoding) runs on the host, at the host's speed rather than TCG's. One request
 * at a time, synchronously, as KernelControl does in process. Exits 0 on quit, 1 on a broken
 * channel. --in/--out/--control/--kmsg name other files (tests on the host: FIFOs).
 */
import { closeSync, constants, openSync, readFileSync, readSync, readdirSync, writeSync } from 'node:fs';
import { release } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FIRST_READ, HELLO_ID, type Hello, REQUEST_HEADER, RelayKind, decodeRequestHeader, encodeAnswer } from '../adapters/kernel/relay-frames.js';
import { rdmavtModule } from '../adapters/kernel/rdmavt-module.js';
import { PORT_NAMES } from '../vm/guest-init.js';
import { STALL_KNOBS, applyKnobs } from '../vm/stall-knobs.js';

const EMPTY = Buffer.alloc(0);
/** -EIO: a failure that carried no errno. */
const EIO = -5;

/** The /dev/vportNpM of the virtio-serial port named `name`. */
function portDevice(name: string): string {
  const dir = '/sys/class/virtio-ports';
  for (const port of readdirSync(dir)) {
    if (readFileSync(`${dir}/${port}/name`, 'utf8').trim() === name) return `/dev/${port}`;
  }
  throw new Error(`no virtio-serial port named ${name} in ${dir}: the VM was started without the relay's port`);
}

/** Exactly `n` bytes from `fd`; undefined at the end of the stream before the first byte. */
function readExactly(fd: number, n: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, null);
    if (k === 0) {
      if (got === 0) return undefined;
      throw new Error(`the channel ended inside a frame (${got} of ${n} bytes)`);
    }
    got += k;
  }
  return buf;
}

/** Reads the kernel log (non-blocking) to its end: the records since the last drain, as /dev/kmsg hands them out. */
function kmsgDrainer(path: string): () => Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const buf = Buffer.allocUnsafe(8192);
  const drain = (): Buffer => {
    const parts: Buffer[] = [];
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // EPIPE: records were overwritten before they were read; the next read goes on.
        if (code === 'EPIPE') continue;
        if (code === 'EAGAIN') break;
        throw error;
      }
      if (n === 0) break;
      parts.push(Buffer.from(buf.subarray(0, n)));
    }
    return parts.length === 0 ? EMPTY : Buffer.concat(parts);
  };
  // What was logged before the relay started (the boot) is nobody's.
  drain();
  return drain;
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

/**
 * Closes descriptors on a thread of its own: closing a session destroys its QPs, CQs and SRQ,
 * some 100 ms of emulated kernel time (RCU grace periods), which the next run need not wait for.
 * Whatever the destruction logs reaches the host with a later answer.
 */
function backgroundCloser(): (fd: number) => void {
  const closer = new Worker("const { parentPort } = require('node:worker_threads'); const { closeSync } = require('node:fs'); parentPort.on('message', (fd) => closeSync(fd));", {
    eval: true,
    // The descriptors are the main thread's: without this, Node warns at each close.
    trackUnmanagedFds: false,
  });
  // Not a reason to stay: the relay exits when the host says quit, and the kernel closes what is left.
  closer.unref();
  return (fd) => closer.postMessage(fd);
}

function main(args: readonly string[]): number {
  // The kernel log is read until EAGAIN after every request, and each EAGAIN is a thrown error:
  // without a stack to capture, it costs a tenth as much under TCG.
  Error.stackTraceLimit = 0;
  // The console is what the host reads of a guest that stopped answering: with every level on
  // it, a lockup's backtrace (KERN_INFO and below) is there too.
  if (args.includes('--stall-knobs')) for (const file of applyKnobs({ ...STALL_KNOBS, '/proc/sys/kernel/printk': '7' })) process.stderr.write(`rvtc-relay: could not set ${file}: a stuck CPU may go unreported\n`);
  const port = option(args, '--in') === undefined ? portDevice(PORT_NAMES.relay) : undefined;
  const input = openSync(option(args, '--in') ?? (port as string), port === undefined ? 'r' : 'r+');
  const output = port === undefined ? openSync(option(args, '--out') as string, 'w') : input;
  const control = option(args, '--control') ?? '/dev/rvtc';
  const kmsg = kmsgDrainer(option(args, '--kmsg') ?? '/dev/kmsg');
  const sessions = new Map<number, number>();
  const closeLater = backgroundCloser();
  const scratch = Buffer.allocUnsafe(FIRST_READ);
  const send = (frame: Buffer) => {
    for (let at = 0; at < frame.length; ) at += writeSync(output, frame, at);
  };
  const hello: Hello = { release: release(), rdmavt: rdmavtModule() };
  send(encodeAnswer(HELLO_ID, 0, Buffer.from(JSON.stringify(hello)), kmsg()));
  for (;;) {
    const header = readExactly(input, REQUEST_HEADER);
    if (header === undefined) {
      process.stderr.write('rvtc-relay: the host closed the channel without quit\n');
      return 1;
    }
    const request = decodeRequestHeader(header);
    const payload = request.length === 0 ? EMPTY : readExactly(input, request.length);
    if (payload === undefined) throw new Error('the channel ended inside a frame');
    let status = 0;
    let data: Buffer = EMPTY;
    try {
      data = serve(request.kind, request.session, payload);
    } catch (error) {
      const errno = (error as NodeJS.ErrnoException).errno;
      status = typeof errno === 'number' && errno < 0 ? errno : EIO;
      if (status === EIO) process.stderr.write(`rvtc-relay: request ${request.kind}: ${String(error)}\n`);
    }
    send(encodeAnswer(request.id, status, data, kmsg()));
    if (request.kind === RelayKind.quit) return 0;
  }

  function serve(kind: number, session: number, payload: Buffer): Buffer {
    switch (kind) {
      case RelayKind.open:
        if (sessions.has(session)) throw Object.assign(new Error(`session ${session} is open already`), { errno: -17 });
        sessions.set(session, openSync(control, 'r+'));
        return EMPTY;
      case RelayKind.exchange: {
        const fd = descriptor(session);
        writeSync(fd, payload);
        const n = readSync(fd, scratch, 0, scratch.length, null);
        return Buffer.from(scratch.subarray(0, n));
      }
      case RelayKind.read: {
        const more = Buffer.allocUnsafe(payload.readUInt32LE(0));
        return more.subarray(0, readSync(descriptor(session), more, 0, more.length, null));
      }
      case RelayKind.close:
        closeLater(descriptor(session));
        sessions.delete(session);
        return EMPTY;
      case RelayKind.quit:
        for (const fd of sessions.values()) closeSync(fd);
        sessions.clear();
        return EMPTY;
      default:
        throw Object.assign(new Error(`unknown request kind ${kind}`), { errno: -22 });
    }
  }

  function descriptor(session: number): number {
    const fd = sessions.get(session);
    if (fd === undefined) throw Object.assign(new Error(`no session ${session}`), { errno: -9 });
    return fd;
  }
}

process.exitCode = main(process.argv.slice(2));
