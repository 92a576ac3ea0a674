import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Adapter } from '../adapters/adapter.js';
import { grpcAdapter } from '../adapters/grpc/client.js';
import { startAgent } from '../adapters/grpc/server.js';
import { modelAdapter } from '../adapters/model/index.js';
import { allCases } from '../suites/index.js';
import { runCases } from '../suites/runner.js';
import { emit, type Figure, time } from './measure.js';

const COMMAND = 'npm run bench (bench/grpc.ts)';

/** Runs the shared suite; returns each case's status, by case. */
async function suite(adapter: Adapter): Promise<Map<string, string>> {
  const info = await adapter.info();
  const { runs } = await runCases({ adapter, info, cases: allCases, profile: info.defaultProfile, timeoutMs: 10_000 });
  return new Map(runs.map((run) => [run.case.id, run.status]));
}

/** How many cases end with the same status both ways: the transport must not change a verdict. */
function sameStatuses(a: Map<string, string>, b: Map<string, string>): number {
  return [...a].filter(([id, status]) => b.get(id) === status).length;
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

/** `rvt-conform agent --adapter model` in a process of its own, as deployed (quiet: no line per call). */
async function agentProcess(): Promise<{ address: string; stop(): Promise<void> }> {
  const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  const child = spawn(process.execPath, [cli, 'agent', '--adapter', 'model', '--listen', '127.0.0.1:0', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const match = / on (127\.0\.0\.1:\d+),/.exec(said);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`the agent exited: ${said}`)));
  });
  return {
    address,
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The whole shared suite through an agent on loopback (client and agent in this process) against
 * the local model, median of repeated runs after a warm-up: the ratio the issue sets a target for;
 * and one call each way (the session stream the client uses, and the unary rpcs it replaced),
 * because the suite is a few thousand sequential calls and a round trip's cost is what the ratio
 * is made of.
 */
export async function benchGrpc(runs = { local: 15, grpc: 5 }): Promise<Figure[]> {
  const agent = await startAgent({ adapter: modelAdapter(), listen: '127.0.0.1:0' });
  const remote = grpcAdapter({ target: agent.address });
  const unary = grpcAdapter({ target: agent.address, transport: 'unary' });
  const separate = await agentProcess();
  const apart = grpcAdapter({ target: separate.address });
  const apartVerbs = grpcAdapter({ target: separate.address, casesOnAgent: false });
  try {
    const local = modelAdapter();
    const statuses = await suite(local);
    const same = Math.min(sameStatuses(statuses, await suite(remote)), sameStatuses(statuses, await suite(apart)), sameStatuses(statuses, await suite(apartVerbs)));
    const localTime = await time(() => suite(local), runs.local);
    const grpcTime = await time(() => suite(remote), runs.grpc);
    const apartTime = await time(() => suite(apart), runs.grpc);
    const apartVerbsTime = await time(() => suite(apartVerbs), runs.grpc);
    const ratio = grpcTime.medianMs / localTime.medianMs;
    const apartRatio = apartTime.medianMs / localTime.medianMs;
    const name = `all ${allCases.length} cases`;
    return [
      { name: 'cases with the same status through the agent (every way) as on the local model', value: same, unit: `of ${statuses.size}`, target: { text: 'all', met: same === statuses.size }, command: COMMAND },
      { name: `suite on the local model: ${name}`, value: localTime.medianMs, unit: 'ms', command: COMMAND },
      { name: `suite through the gRPC agent on loopback, agent in this process, verb by verb (an agent without cases): ${name}`, value: grpcTime.medianMs, unit: 'ms', command: COMMAND },
      { name: 'gRPC agent in this process, verb by verb / local model', value: Number(ratio.toFixed(2)), unit: 'x', command: COMMAND },
      { name: `suite through \`rvt-conform agent\` in its own process on loopback, a RunCase a case: ${name}`, value: apartTime.medianMs, unit: 'ms', command: COMMAND },
      { name: 'gRPC agent in its own process / local model', value: Number(apartRatio.toFixed(2)), unit: 'x', target: { text: '<= 3x (issue 16)', met: apartRatio <= 3 }, command: COMMAND },
      { name: `suite through \`rvt-conform agent\` in its own process on loopback, verb by verb (casesOnAgent: false): ${name}`, value: apartVerbsTime.medianMs, unit: 'ms', command: COMMAND },
      { name: 'gRPC agent in its own process, verb by verb / local model', value: Number((apartVerbsTime.medianMs / localTime.medianMs).toFixed(2)), unit: 'x', command: COMMAND },
      { name: 'one call (queryDevice) on the local model', value: await perCallMicros(local), unit: 'µs', command: COMMAND },
      { name: 'one call (queryDevice) through the gRPC agent, session stream', value: await perCallMicros(remote), unit: 'µs', command: COMMAND },
      { name: 'one call (queryDevice) through the gRPC agent, one unary rpc each', value: await perCallMicros(unary), unit: 'µs', command: COMMAND },
      { name: 'one call (queryDevice) through `rvt-conform agent` in its own process, session stream', value: await perCallMicros(apart), unit: 'µs', command: COMMAND },
    ];
  } finally {
    await apart.dispose();
    await apartVerbs.dispose();
    await separate.stop();
    await remote.dispose();
    await unary.dispose();
    await agent.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) emit('grpc', await benchGrpc());
