import { pathToFileURL } from 'node:url';
import type { Adapter } from '../adapters/adapter.js';
import { grpcAdapter } from '../adapters/grpc/client.js';
import { startAgent } from '../adapters/grpc/server.js';
import { modelAdapter } from '../adapters/model/index.js';
import { allCases } from '../suites/index.js';
import { runCases } from '../suites/runner.js';
import { emit, type Figure, time } from './measure.js';

const COMMAND = 'npm run bench (bench/grpc.ts)';

async function suite(adapter: Adapter): Promise<void> {
  const info = await adapter.info();
  await runCases({ adapter, info, cases: allCases, profile: info.defaultProfile, timeoutMs: 10_000 });
}

/** Microseconds per call of the cheapest verb, back to back on one session: the cost of a round trip. */
async function perCallMicros(adapter: Adapter, calls = 2000): Promise<number> {
  const session = await adapter.open();
  try {
    const started = performance.now();
    for (let i = 0; i < calls; i++) await session.queryDevice({});
    return Math.round(((performance.now() - started) * 10_000) / calls) / 10;
  } finally {
    await session.close();
  }
}

/**
 * The whole shared suite through an agent on loopback (client and agent in this process) against
 * the local model, median of repeated runs after a warm-up: the ratio the issue sets a target for;
 * and one call each way, because the suite is a few thousand sequential calls and a round trip's
 * cost is what the ratio is made of.
 */
export async function benchGrpc(runs = { local: 15, grpc: 5 }): Promise<Figure[]> {
  const agent = await startAgent({ adapter: modelAdapter(), listen: '127.0.0.1:0' });
  const remote = grpcAdapter({ target: agent.address });
  try {
    const local = modelAdapter();
    await suite(remote);
    await suite(local);
    const localTime = await time(() => suite(local), runs.local);
    const grpcTime = await time(() => suite(remote), runs.grpc);
    const ratio = grpcTime.medianMs / localTime.medianMs;
    const name = `all ${allCases.length} cases`;
    return [
      { name: `suite on the local model: ${name}`, value: localTime.medianMs, unit: 'ms', command: COMMAND },
      { name: `suite through the gRPC agent on loopback: ${name}`, value: grpcTime.medianMs, unit: 'ms', command: COMMAND },
      { name: 'gRPC agent / local model', value: Number(ratio.toFixed(2)), unit: 'x', target: { text: '<= 1.5x (issue 8)', met: ratio <= 1.5 }, command: COMMAND },
      { name: 'one call (queryDevice) on the local model', value: await perCallMicros(local), unit: 'µs', command: COMMAND },
      { name: 'one call (queryDevice) through the gRPC agent', value: await perCallMicros(remote), unit: 'µs', command: COMMAND },
    ];
  } finally {
    await remote.dispose();
    await agent.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) emit('grpc', await benchGrpc());
