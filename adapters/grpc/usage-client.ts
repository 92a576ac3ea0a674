import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { service as healthService } from 'grpc-health-check';
import { AGENT_SERVICE_NAME } from './protocol.js';
import { channelCredentials, channelOptions, failure, type GrpcClientOptions, unusableAgent } from './client.js';
import { withToken } from './metadata.js';
import { parseEndpoint } from './endpoint.js';
import { AgentUsage, usageMethod } from './usage.js';

const check = healthService.Check as MethodDefinition<{ service: string }, object, object, { status?: string }>;

/** What an operator asks an agent: is it serving (grpc.health.v1, no credentials), and who holds what (rpc Usage). */
export async function agentStatus(options: Omit<GrpcClientOptions, 'transport'>): Promise<{ health: string; usage: AgentUsage }> {
  const target = parseEndpoint('--target', options.target).address;
  const client = new grpc.Client(target, channelCredentials(options.tls), channelOptions(options.tls));
  const timeoutMs = options.callTimeoutMs ?? 10_000;
  const unary = <Req, Res>(definition: MethodDefinition<Req, object, object, Res>, request: Req, name: string) =>
    new Promise<Res>((resolve, reject) => {
      const metadata = new grpc.Metadata();
      if (options.token !== undefined) withToken(metadata, options.token);
      client.makeUnaryRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadata, { deadline: Date.now() + timeoutMs }, (error, response) =>
        error ? reject(unusableAgent(failure(error, target, name))) : resolve(response as Res),
      );
    });
  try {
    const health = await unary(check, { service: AGENT_SERVICE_NAME }, 'Health.Check');
    const usage = AgentUsage.parse(usageMethod.response.decode(await unary(usageMethod.definition, {}, 'Usage')));
    return { health: health.status ?? 'UNKNOWN', usage };
  } finally {
    client.close();
  }
}
