import { describe, expect, it } from 'vitest';
import { agentStatus } from '../../../adapters/grpc/usage-client.js';
import { renderStatus } from '../../../cli/commands/agent-status.js';
import { InfrastructureError } from '../../../spec/errors.js';
import { serveModel } from './fixture.js';

describe('agent status (the operator view)', () => {
  it('reports health, and sessions, resources, memory and connections per client against the limits', async () => {
    const served = await serveModel({ token: 'op' });
    const session = await served.client({ token: 'op' }).open();
    const { pd } = await session.allocPd({});
    await session.createCq({ cqe: 15 });
    await session.regMr({ pd: pd as number, length: 4096, access: ['LOCAL_WRITE'] });

    const { health, usage } = await agentStatus({ target: served.agent.address, token: 'op' });
    expect(health).toBe('SERVING');
    expect(usage).toMatchObject({ sessions: 1, memory: 16 * 128 + 4096, limits: { maxSessions: 64, maxWrsPerPost: 1024 } });
    expect(usage.clients).toEqual([{ client: '127.0.0.1', sessions: 1, resources: 3, memory: 16 * 128 + 4096, callsInFlight: 0, connections: 2 }]);
    expect(renderStatus(served.agent.address, health, usage).split('\n').slice(1)).toEqual([
      'sessions 1/64, memory 0.0 MiB of 1024.0 MiB (256.0 MiB per client, 256.0 MiB per session), connections 2',
      'per post at most 1024 WRs; per session at most 4096 resources and 16 calls in flight',
      'client     sessions  resources  memory   in flight  connections',
      '127.0.0.1  1/16      3          0.0 MiB  0          2',
    ]);
    await session.close();
  });

  it('needs the token: the accounting names clients', async () => {
    const served = await serveModel({ token: 'op' });
    await expect(agentStatus({ target: served.agent.address })).rejects.toThrow(InfrastructureError);
  });
});
