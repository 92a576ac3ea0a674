import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { UserError } from '../../cli/errors.js';
import type { Adapter } from '../adapter.js';
import { DEFAULT_LIMITS, type HostLimits, SessionHost } from '../remote/session-host.js';
import { checkExposure, parseEndpoint } from './endpoint.js';
import { AGENT_SERVICE_NAME, agentService } from './protocol.js';
import { agentImplementation } from './service.js';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  /** Clients must present a certificate signed by this CA (mutual TLS). */
  clientCa?: Buffer | undefined;
}

export interface AgentOptions {
  adapter: Adapter;
  /** HOST:PORT; port 0 picks a free one (see Agent.address). */
  listen: string;
  limits?: HostLimits;
  tls?: TlsFiles | undefined;
  token?: string | undefined;
  /** Serve a non-loopback address without TLS or token. */
  insecure?: boolean;
  /** One line per call; nothing by default. */
  log?: (line: string) => void;
}

export interface Agent {
  /** Where it listens, with the port it got. */
  address: string;
  /** The sessions it serves: its accounting says what clients still hold. */
  host: SessionHost;
  /** Cancels every call, destroys every session, releases the adapter. */
  close(): Promise<void>;
}

/**
 * A peer that vanished without closing its connection (a cut network, a powered-off machine) is
 * noticed by keepalive pings: its lease ends within about half a minute, and its session with it.
 */
const KEEPALIVE = { 'grpc.keepalive_time_ms': 20_000, 'grpc.keepalive_timeout_ms': 10_000 };

/** The largest request: an MR write at the size limit, as hex, with room for the rest of the message. */
const maxRequestBytes = (limits: HostLimits) => 2 * limits.maxMrBytes + (64 << 10);

function serverCredentials(tls: TlsFiles | undefined): grpc.ServerCredentials {
  if (tls === undefined) return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(tls.clientCa ?? null, [{ private_key: tls.key, cert_chain: tls.cert }], tls.clientCa !== undefined);
}

function bind(server: grpc.Server, address: string, credentials: grpc.ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentials, (error, port) => {
      if (error === null) resolve(port);
      else {
        reject(
          new UserError(`cannot listen on ${address}: ${error.message}`, {
            hint: 'check that the --listen address is free (or choose another), and that --tls-cert, --tls-key and --client-ca are PEM files',
          }),
        );
      }
    });
  });
}

/** Serves a local adapter over gRPC: the Agent service, and grpc.health.v1 (no credentials needed for it). */
export async function startAgent(options: AgentOptions): Promise<Agent> {
  const listen = parseEndpoint('--listen', options.listen);
  checkExposure(listen, { tls: options.tls !== undefined, token: options.token !== undefined, insecure: options.insecure ?? false });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const host = new SessionHost(options.adapter, limits);
  const server = new grpc.Server({ ...KEEPALIVE, 'grpc.max_receive_message_length': maxRequestBytes(limits) });
  server.addService(agentService, agentImplementation({ host, token: options.token, log: options.log ?? (() => undefined) }));
  new HealthImplementation({ '': 'SERVING', [AGENT_SERVICE_NAME]: 'SERVING' }).addToServer(server);
  const port = await bind(server, listen.address, serverCredentials(options.tls));
  return {
    address: `${listen.host}:${port}`,
    host,
    async close() {
      server.forceShutdown();
      await host.closeAll();
      await options.adapter.dispose();
    },
  };
}
