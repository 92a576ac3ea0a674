import { describe, expect, it } from 'vitest';
import { startAgent } from '../../adapters/grpc/server.js';
import { freeLocalPort, healthCheck } from '../../guest/agent-in-vm.js';
import { referenceModel } from '../helpers.js';

// withAgentInVm itself needs the VM: .ci/rxe-grpc.sh runs it. These are the host-side pieces it waits with.
describe('agent-in-vm host side', () => {
  it('health-checks a serving agent (no token needed for grpc.health.v1)', async () => {
    const agent = await startAgent({ adapter: referenceModel(), listen: '127.0.0.1:0', token: 'secret' });
    try {
      expect(await healthCheck(agent.address, 3000)).toBe('SERVING');
    } finally {
      await agent.close();
    }
  });

  it('rejects when nothing answers on the port', async () => {
    const port = await freeLocalPort();
    expect(port).toBeGreaterThan(0);
    await expect(healthCheck(`127.0.0.1:${port}`, 500)).rejects.toThrow();
  });
});
