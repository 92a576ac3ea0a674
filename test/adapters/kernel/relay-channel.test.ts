import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { relayProgram } from '../../../guest/relay-program.js';
import { KernelLog } from '../../../adapters/kernel/kmsg.js';
import { RelayChannel, RelayClosed } from '../../../adapters/kernel/relay-channel.js';
import { ANSWER_HEADER, HELLO_ID, RelayKind, decodeAnswerHeader, encodeAnswer, encodeRequest } from '../../../adapters/kernel/relay-frames.js';

const HELLO = JSON.stringify({ release: '6.1.0-test', rdmavt: 'none' });

/**
 * The relay as the VM runs it (guest/relay/rvtc-relay.c, built as the VM's job gets it), on this
 * host: FIFOs for the port, a FIFO for "/dev/rvtc" (what is written to it is read back: an echo
 * device), and one for the kernel log.
 */
describe('the rvtc relay and its host channel', () => {
  let program: string;
  let cacheDir: string;
  let dir: string;
  let relay: ChildProcess;
  let exited: Promise<number | null>;
  // The test holds every FIFO open read-write, so that no open blocks whichever side comes first.
  let held: number[];
  let kmsgWriter: number;

  beforeAll(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'relay-build-'));
    program = await relayProgram(cacheDir);
  });
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
    execFileSync('mkfifo', ['r.in', 'r.out', 'echo', 'kmsg'].map((f) => join(dir, f)));
    held = ['r.in', 'r.out', 'echo', 'kmsg'].map((f) => openSync(join(dir, f), constants.O_RDWR));
    kmsgWriter = held[3] as number;
    writeFileSync(join(dir, 'kmsg.log'), '');
    relay = spawn(program, ['--hello', HELLO, '--in', join(dir, 'r.in'), '--out', join(dir, 'r.out'), '--control', join(dir, 'echo'), '--kmsg', join(dir, 'kmsg')], { stdio: 'ignore' });
    exited = new Promise((resolve) => relay.once('exit', (code) => resolve(code)));
    // The channel's reads block, and the test holds every FIFO's far end: a relay that never
    // started would hang the file rather than fail it. Its hello shows it runs.
    expect(await helloOf(join(dir, 'r.out'), exited)).toBe(HELLO);
  });

  afterEach(() => {
    relay.kill('SIGKILL');
    for (const fd of held) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const channel = () => new RelayChannel(join(dir, 'r'), join(dir, 'kmsg.log'));

  it('carries a session: open, a write answered by a read, the rest of an answer read on its own, close, quit', async () => {
    const c = channel();
    const s = c.newSession();
    expect(c.call(s, RelayKind.open, Buffer.alloc(0), 'open').length).toBe(0);
    expect(c.call(s, RelayKind.exchange, Buffer.from('query'), 'write').toString()).toBe('query');
    // What a first read left (the echo device holds it): read on its own.
    writeSync(held[2] as number, 'rest of it');
    expect(c.call(s, RelayKind.read, Buffer.from(Uint32Array.of(4).buffer), 'read').toString()).toBe('rest');
    expect(c.call(s, RelayKind.read, Buffer.from(Uint32Array.of(64).buffer), 'read').toString()).toBe(' of it');
    c.call(s, RelayKind.close, Buffer.alloc(0), 'close');
    c.call(0, RelayKind.quit, Buffer.alloc(0), 'quit');
    expect(await exited).toBe(0);
  });

  it('serves every session a long fuzz numbers (one a run, never reused), several open at once', () => {
    const c = channel();
    const anchor = c.newSession();
    c.call(anchor, RelayKind.open, Buffer.alloc(0), 'open');
    // A fuzz of 4,094 runs once met the relay's old bound on session numbers: its open answered EINVAL.
    for (let run = 0; run < 5000; run++) {
      const s = c.newSession();
      c.call(s, RelayKind.open, Buffer.alloc(0), 'open');
      c.call(s, RelayKind.close, Buffer.alloc(0), 'close');
    }
    expect(c.call(anchor, RelayKind.exchange, Buffer.from('still'), 'write').toString()).toBe('still');
    expect(() => c.call(anchor, RelayKind.open, Buffer.alloc(0), 'open')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
  });

  it("hands the kernel log records logged meanwhile to the host's file, where the kernel log watch reads them", () => {
    const c = channel();
    const log = new KernelLog(join(dir, 'kmsg.log'));
    const s = c.newSession();
    c.call(s, RelayKind.open, Buffer.alloc(0), 'open');
    writeSync(kmsgWriter, '4,77,123456,-;WARNING: CPU: 0 PID: 1 at drivers/infiniband/sw/rdmavt/qp.c:2041\n SUBSYSTEM=infiniband\n');
    c.call(s, RelayKind.exchange, Buffer.from('x'), 'write');
    expect(log.drain()).toEqual([{ seq: 77, usec: 123456, text: 'WARNING: CPU: 0 PID: 1 at drivers/infiniband/sw/rdmavt/qp.c:2041' }]);
    expect(log.drain()).toEqual([]);
  });

  it("fails a request as the guest's system call failed, with its errno's code", () => {
    const c = channel();
    expect(() => c.call(99, RelayKind.exchange, Buffer.from('x'), 'write /dev/rvtc')).toThrow(expect.objectContaining({ code: 'EBADF', message: 'EBADF: write /dev/rvtc in the VM' }));
    rmSync(join(dir, 'echo'));
    expect(() => c.call(1, RelayKind.open, Buffer.alloc(0), 'open /dev/rvtc')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('reads past an answer to an older request (its caller was killed while the guest worked on it)', () => {
    // The guest's answer to request 41, still in the FIFO when a new caller asks request 1.
    writeSync(held[1] as number, encodeAnswer(41, 0, Buffer.from('stale'), Buffer.alloc(0)));
    const c = channel();
    const s = c.newSession();
    c.call(s, RelayKind.open, Buffer.alloc(0), 'open');
    expect(c.call(s, RelayKind.exchange, Buffer.from('fresh'), 'write').toString()).toBe('fresh');
  });

  it('says the channel closed when the guest went away (QEMU exited), instead of waiting', async () => {
    const c = channel();
    // Only QEMU (here the relay) holds the far ends now.
    for (const fd of held.splice(0, 2)) closeSync(fd);
    relay.kill('SIGKILL');
    await exited;
    expect(() => c.call(1, RelayKind.open, Buffer.alloc(0), 'open /dev/rvtc')).toThrow(RelayClosed);
  });
});

/** The relay's hello (its data) read from `path`, failing when the relay exits or 5 s pass first. */
async function helloOf(path: string, exited: Promise<number | null>): Promise<string> {
  let code: number | null | undefined;
  void exited.then((c) => {
    code = c ?? -1;
  });
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    let got = Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(4096);
    for (const deadline = Date.now() + 5000; Date.now() < deadline && code === undefined; ) {
      try {
        got = Buffer.concat([got, chunk.subarray(0, readSync(fd, chunk))]);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await sleep(10);
      }
      if (got.length < ANSWER_HEADER) continue;
      const header = decodeAnswerHeader(got);
      if (header.id !== HELLO_ID) throw new Error(`the relay's first answer was ${header.id}, not its hello`);
      if (got.length >= ANSWER_HEADER + header.dataLength + header.kmsgLength) return got.toString('utf8', ANSWER_HEADER, ANSWER_HEADER + header.dataLength);
    }
    throw new Error(code === undefined ? 'the relay said no hello within 5 s' : `the relay exited (${code}) before its hello`);
  } finally {
    closeSync(fd);
  }
}

describe('the relay frames', () => {
  it('round-trips an answer header, a negative status included', () => {
    const frame = encodeAnswer(7, -4, Buffer.from('ab'), Buffer.from('cde'));
    expect(decodeAnswerHeader(frame)).toEqual({ id: 7, status: -4, dataLength: 2, kmsgLength: 3 });
    expect(encodeRequest(1, 2, RelayKind.read, Buffer.from('z')).length).toBe(17);
  });
});
