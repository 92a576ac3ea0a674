import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { sessionMethod } from '../../../adapters/grpc/stream-codec.js';
import { DEFAULT_LIMITS } from '../../../adapters/remote/budget.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { serveModel } from './fixture.js';

type Message = { [key: string]: unknown };

/** One raw rpc Session stream: send a message, wait for the next answer, and for the stream's status. */
function rawStream(address: string) {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const stream = client.makeBidiStreamRequest(sessionMethod.path, sessionMethod.requestSerialize, sessionMethod.responseDeserialize, new grpc.Metadata());
  const answers: Message[] = [];
  const waiters: ((m: Message) => void)[] = [];
  stream.on('data', (m: Message) => {
    const waiter = waiters.shift();
    if (waiter === undefined) answers.push(m);
    else waiter(m);
  });
  const status = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
  stream.on('error', () => undefined);
  const next = () => new Promise<Message>((resolve) => (answers.length > 0 ? resolve(answers.shift() as Message) : waiters.push(resolve)));
  return {
    next,
    ask: (message: object) => {
      stream.write(message);
      return next();
    },
    status,
    close: () => {
      stream.cancel();
      client.close();
    },
  };
}

describe('a session stream', () => {
  it('carries sessions one after another: each starts fresh, the agent holds nothing between them, and a closed session reaches nothing', async () => {
    const served = await serveModel();
    const client = served.client();
    const first = await client.open();
    const { pd } = await first.allocPd({});
    await first.createCq({ cqe: 4 });
    await first.close();
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });

    const second = await client.open();
    const fresh = await modelAdapter().open();
    // the same handle a session of its own would get: nothing of the first is left
    expect((await second.allocPd({})).pd).toEqual((await fresh.allocPd({})).pd);
    expect((await second.allocPd({})).pd).not.toEqual(pd);
    await expect(first.allocPd({})).rejects.toThrow(/the session is closed/);
    expect(served.agent.host.accounting()).toEqual({ sessions: 1, resources: 2 });
    await second.close();
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
    expect(served.log.filter((line) => / call=session status=OK /.test(line))).toEqual([
      expect.stringMatching(/^session=1 /),
      expect.stringMatching(/^session=2 /),
    ]);
  });

  it('answers end with ended, a call between sessions NOT_FOUND, begin with opened, and a second begin FAILED_PRECONDITION', async () => {
    const served = await serveModel();
    const raw = rawStream(served.agent.address);
    expect(await raw.next()).toMatchObject({ id: 0, opened: {} });
    expect(await raw.ask({ id: 1, alloc_pd: {} })).toMatchObject({ id: 1, alloc_pd: { raw_return: 0 } });
    expect(await raw.ask({ id: 2, end: {} })).toMatchObject({ id: 2, ended: {} });
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
    expect(await raw.ask({ id: 3, alloc_pd: {} })).toMatchObject({ id: 3, error: { code: grpc.status.NOT_FOUND } });
    expect(await raw.ask({ id: 4, begin: {} })).toMatchObject({ id: 4, opened: {} });
    expect(await raw.ask({ id: 5, begin: {} })).toMatchObject({ id: 5, error: { code: grpc.status.FAILED_PRECONDITION } });
    expect(await raw.ask({ id: 6, alloc_pd: {} })).toMatchObject({ id: 6, alloc_pd: { raw_return: 0 } });
    expect(served.agent.host.accounting()).toEqual({ sessions: 1, resources: 1 });
    raw.close();
  });

  it('without a session is ended at once when its client already keeps as many such streams as it may hold sessions', async () => {
    const served = await serveModel({ limits: { ...DEFAULT_LIMITS, maxSessionsPerClient: 1 } });
    const kept = rawStream(served.agent.address);
    expect(await kept.next()).toMatchObject({ opened: {} });
    expect(await kept.ask({ id: 1, end: {} })).toMatchObject({ ended: {} });
    const over = rawStream(served.agent.address);
    expect(await over.next()).toMatchObject({ opened: {} });
    expect(await over.ask({ id: 1, end: {} })).toMatchObject({ ended: {} });
    expect((await over.status).code).toBe(grpc.status.OK);
    // the one kept still begins a session
    expect(await kept.ask({ id: 2, begin: {} })).toMatchObject({ id: 2, opened: {} });
    kept.close();
    over.close();
  });
});
