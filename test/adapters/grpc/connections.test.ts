import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionGuard, DEFAULT_CONNECTION_LIMITS } from '../../../adapters/grpc/connections.js';
import { RefusalLog } from '../../../adapters/grpc/refusal-log.js';
import { answerBytes } from '../../../adapters/grpc/service.js';

const MiB = 1 << 20;

/** A socket as the guard sees it: an address, a port, destroy and close. */
function fakeSocket(port: number): Socket & { destroyed: boolean } {
  const socket = Object.assign(new EventEmitter(), { remoteAddress: '127.0.0.1', remotePort: port, destroyed: false });
  return Object.assign(socket, {
    destroy() {
      socket.destroyed = true;
      socket.emit('close');
    },
  }) as unknown as Socket & { destroyed: boolean };
}

function guard(client: number, collect?: () => void) {
  const notices: string[] = [];
  const g = new ConnectionGuard(DEFAULT_CONNECTION_LIMITS, new RefusalLog({ lines: 100, windowMs: 60_000 }, (line) => notices.push(line)), { client, agent: 4 * client }, collect);
  return { g, notices };
}

describe('ConnectionGuard.reserve', () => {
  it('counts a large answer from the start of its call, so a client that does not read cannot have more built than its budget', () => {
    const { g, notices } = guard(32 * MiB);
    const socket = fakeSocket(1000);
    g.admit(socket);
    const first = g.reserve('127.0.0.1:1000', 16 * MiB);
    expect(first).toBeDefined();
    expect(g.unsent().get('127.0.0.1')).toBe(16 * MiB);
    // the second fits, the third does not: the connection is closed before that answer is built
    expect(g.reserve('127.0.0.1:1000', 16 * MiB)).toBeDefined();
    expect(g.reserve('127.0.0.1:1000', 16 * MiB)).toBeUndefined();
    expect(socket.destroyed).toBe(true);
    expect(g.unsent()).toEqual(new Map());
    expect(notices).toEqual([expect.stringMatching(/^closed connection client=127\.0\.0\.1: it does not read its answers: 48\.0 MiB of answers to 127\.0\.0\.1 wait unread, over its budget of client memory \(32\.0 MiB\)$/)]);
  });

  it('gives the room back when the answer is written (its bytes are then counted as sent or not)', () => {
    const { g } = guard(32 * MiB);
    g.admit(fakeSocket(1001));
    for (let i = 0; i < 10; i++) {
      const release = g.reserve('127.0.0.1:1001', 16 * MiB);
      expect(release).toBeTypeOf('function');
      if (typeof release === 'function') release();
    }
    expect(g.unsent()).toEqual(new Map());
  });

  it("closes another of the client's connections when that one holds more, and this call runs", () => {
    const { g } = guard(32 * MiB);
    const heavy = fakeSocket(1002);
    const light = fakeSocket(1003);
    g.admit(heavy);
    g.admit(light);
    g.sending('127.0.0.1:1002', 30 * MiB);
    expect(g.reserve('127.0.0.1:1003', 8 * MiB)).toBeDefined();
    expect(heavy.destroyed).toBe(true);
    expect(light.destroyed).toBe(false);
  });
});

describe('answerBytes', () => {
  it("is a ReadMr's hex (two digits a byte), at most the MR limit's, and 0 for calls with small answers", () => {
    expect(answerBytes('readMr', { mr: 1, offset: 0, length: 4 * MiB }, 16 * MiB)).toBe(8 * MiB);
    expect(answerBytes('readMr', { mr: 1, offset: 0, length: 1 << 30 }, 16 * MiB)).toBe(32 * MiB);
    expect(answerBytes('readMr', { mr: 1, offset: 0, length: 'x' }, 16 * MiB)).toBe(0);
    expect(answerBytes('queryDevice', {}, 16 * MiB)).toBe(0);
  });
});

describe('ConnectionGuard and the garbage of closed connections', () => {
  it('collects once after connections closed for the answers they held are gone, not for connections that just closed', async () => {
    vi.useFakeTimers();
    try {
      let collections = 0;
      const { g } = guard(32 * MiB, () => collections++);
      const quiet = fakeSocket(2000);
      g.admit(quiet);
      quiet.destroy();
      await vi.advanceTimersByTimeAsync(1000);
      expect(collections).toBe(0);
      // two closed for their answers in one burst: one collection, after they are gone
      for (const port of [2001, 2002]) {
        g.admit(fakeSocket(port));
        g.sending(`127.0.0.1:${port}`, 40 * MiB);
      }
      expect(collections).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(collections).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
  it('keeps the answers of a connection closed for them counted until that collection has run: larger calls are refused meanwhile', async () => {
    vi.useFakeTimers();
    try {
      const { g } = guard(32 * MiB, () => undefined);
      const reader = fakeSocket(2010);
      g.admit(reader);
      g.admit(fakeSocket(2011));
      // 40 MiB unread on 2011: closed, and its 40 MiB are garbage until collected
      g.sending('127.0.0.1:2011', 40 * MiB);
      expect(g.awaitingCollection()).toEqual(new Map([['127.0.0.1', 40 * MiB]]));
      expect(g.reserve('127.0.0.1:2010', MiB)).toMatch(/^it would hold 1\.0 MiB, and 127\.0\.0\.1's hold 40\.0 MiB of its 32\.0 MiB \(40\.0 MiB of answers of connections closed for not reading them await collection\)$/);
      expect(g.admitRequest('127.0.0.1:2010', MiB)).toBeTypeOf('string');
      // refused, not closed: closing more would free nothing sooner
      expect(reader.destroyed).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      expect(g.awaitingCollection()).toEqual(new Map());
      expect(g.reserve('127.0.0.1:2010', MiB)).toBeTypeOf('function');
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts nothing awaiting collection without a collector: nothing would say when it is freed', () => {
    const { g } = guard(32 * MiB);
    g.admit(fakeSocket(2020));
    g.admit(fakeSocket(2021));
    g.sending('127.0.0.1:2021', 40 * MiB);
    expect(g.awaitingCollection()).toEqual(new Map());
    expect(g.reserve('127.0.0.1:2020', MiB)).toBeTypeOf('function');
  });
});
