import { createServer, type Server as NetServer } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { UserError } from '../../spec/errors.js';
import type { Adapter } from '../adapter.js';
import { DEFAULT_LIMITS, type HostLimits } from '../remote/budget.js';
import { SessionHost } from '../remote/session-host.js';
import { ConnectionGuard, type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './connections.js';
import { checkExposure, type Endpoint, parseEndpoint } from './endpoint.js';
import { CountedCall } from './counted-call.js';
import { tokenMatches } from './metadata.js';
import { lookup } from './methods.js';
import { AGENT_SERVICE_NAME, agentService } from './protocol.js';
import { boundedService, FIELDS_PER_WR } from './request-bound.js';
import { DEFAULT_REFUSAL_RATE, RefusalLog, type RefusalRate } from './refusal-log.js';
import { type AgentCases, agentImplementation } from './service.js';
import type { AgentUsage } from './usage.js';

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
  connections?: ConnectionLimits;
  tls?: TlsFiles | undefined;
  token?: string | undefined;
  /** Serve a non-loopback address without TLS or token. */
  insecure?: boolean;
  /** One line per call; nothing by default. */
  log?: (line: string) => void;
  /** One line per refusal over a budget and per connection refused or closed; nothing by default. */
  notice?: (line: string) => void;
  /** How many lines about refusals (log and notices) it writes before it sums the rest up. */
  refusalRate?: RefusalRate;
  /** The built-in cases it runs for clients (rpc RunCases); without, clients run them verb by verb. */
  cases?: AgentCases;
  /** A full garbage collection, run after connections closed for the answers they held (ConnectionGuard); none without. */
  collectGarbage?: () => void;
}

export interface Agent {
  /** Where it listens, with the port it got. */
  address: string;
  /** The sessions it serves: its accounting says what clients still hold. */
  host: SessionHost;
  /** The connections it holds. */
  connections: ConnectionGuard;
  /** Cancels every call, destroys every session, releases the adapter. */
  close(): Promise<void>;
}

/**
 * A peer that vanished without closing its connection (a cut network, a powered-off machine) is
 * noticed by keepalive pings: its lease ends within about half a minute, and its session with it.
 * A connection with no call for five minutes is closed (a client reconnects when it next calls).
 */
const KEEPALIVE = { 'grpc.keepalive_time_ms': 20_000, 'grpc.keepalive_timeout_ms': 10_000, 'grpc.max_connection_idle_ms': 300_000 };

/**
 * Streams one connection may have open at once (HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS, which
 * Node leaves unbounded): as many as a client may use (a stream per session, and one per call in
 * flight where a session calls an rpc at a time), and room for health checks, status and cases.
 * A peer that opened streams and never sent on them held agent memory for each; past this bound
 * its streams are refused (REFUSED_STREAM). None where the sessions have no bound either.
 */
export function maxStreamsPerConnection(limits: HostLimits): number | undefined {
  const streams = limits.maxSessionsPerClient * (limits.maxCallsInFlight + 1) + 16;
  return Number.isFinite(streams) ? streams : undefined;
}

/** The largest request: an MR write at the size limit, as hex, with room for the rest of the message. */
const maxRequestBytes = (limits: HostLimits) => 2 * limits.maxMrBytes + (64 << 10);

function serverCredentials(tls: TlsFiles | undefined): grpc.ServerCredentials {
  if (tls === undefined) return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(tls.clientCa ?? null, [{ private_key: tls.key, cert_chain: tls.cert }], tls.clientCa !== undefined);
}

/**
 * Listens with our own TCP server and hands each admitted connection to grpc-js, so that every
 * connection passes the guard first (grpc-js' own listener takes any number, for ever).
 */
function listen(endpoint: Endpoint, guard: ConnectionGuard, inject: (socket: import('node:net').Socket) => void): Promise<NetServer> {
  const port = Number(endpoint.address.slice(endpoint.address.lastIndexOf(':') + 1));
  const host = endpoint.host.replace(/^\[|\]$/g, '');
  // no Nagle: a call is one small message each way, and waiting to batch it costs the round trip
  const server = createServer({ noDelay: true }, (socket) => {
    if (guard.admit(socket)) inject(socket);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      reject(
        new UserError(`cannot listen on ${endpoint.address}: ${error.message}`, {
          hint: 'check that the --listen address is free (or choose another)',
        }),
      );
    });
    server.listen(port, host, () => resolve(server));
  });
}

function credentialsOf(tls: TlsFiles | undefined): grpc.ServerCredentials {
  try {
    return serverCredentials(tls);
  } catch (error) {
    throw new UserError(`cannot use the TLS files: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'check that --tls-cert, --tls-key and --client-ca are PEM files',
    });
  }
}

/** Serves a local adapter over gRPC: the Agent service, and grpc.health.v1 (no credentials needed for it). */
export async function startAgent(options: AgentOptions): Promise<Agent> {
  const endpoint = parseEndpoint('--listen', options.listen);
  checkExposure(endpoint, {
    tls: options.tls !== undefined,
    clientCa: options.tls?.clientCa !== undefined,
    token: options.token !== undefined,
    insecure: options.insecure ?? false,
  });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const notice = options.notice ?? (() => undefined);
  const host = new SessionHost(options.adapter, limits);
  const refusals = new RefusalLog(options.refusalRate ?? DEFAULT_REFUSAL_RATE, notice);
  // answers waiting for a client that does not read are bounded as its resources are (and apart from them)
  const guard = new ConnectionGuard(options.connections ?? DEFAULT_CONNECTION_LIMITS, refusals, { client: limits.maxClientMemory, agent: limits.maxAgentMemory }, options.collectGarbage);
  // An authenticated call tells the guard that its connection is in use: any call where there is
  // no token (mutual TLS authenticated the connection, or nothing is checked), else one that
  // carries it. Once its connection is trusted, a call is only counted (what it sends and when it
  // went), not wrapped in an interceptor: that layer sits in the path of every message, and grpc-js
  // uses only what the call's interface offers.
  const door: grpc.ServerInterceptor = (method, received) => {
    const peer = received.getPeer();
    // a stream's answers are counted where they are written (service.ts), ahead of its buffer
    const call = method.responseStream ? received : new CountedCall(received, (bytes) => guard.sending(peer, bytes));
    const refusal = guard.refusalOf(peer);
    if (refusal === undefined && (options.token === undefined || guard.trusted(peer))) {
      guard.used(peer);
      return call as unknown as grpc.ServerInterceptingCall;
    }
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, pass) => {
            if (refusal !== undefined) {
              call.sendStatus({ code: grpc.status.RESOURCE_EXHAUSTED, details: `${refusal}, each held by an authenticated client`, metadata: new grpc.Metadata() });
              return;
            }
            if (options.token !== undefined && tokenMatches(options.token, metadata)) guard.used(peer);
            pass(metadata);
          },
        }),
    });
  };
  const streams = maxStreamsPerConnection(limits);
  const server = new grpc.Server({
    ...KEEPALIVE,
    'grpc.max_receive_message_length': maxRequestBytes(limits),
    ...(streams === undefined ? {} : { 'grpc.max_concurrent_streams': streams }),
    interceptors: [door],
  });
  const started = performance.now();
  const usage = (): AgentUsage => {
    const connections = guard.count();
    const clients = host.usage().map((u) => ({ ...u, connections: connections.get(u.client) ?? 0 }));
    for (const [client, n] of connections) {
      if (!clients.some((c) => c.client === client)) clients.push({ client, sessions: 0, resources: 0, memory: 0, callsInFlight: 0, connections: n });
    }
    return {
      uptimeMs: Math.round(performance.now() - started),
      sessions: clients.reduce((sum, c) => sum + c.sessions, 0),
      memory: clients.reduce((sum, c) => sum + c.memory, 0),
      connections: [...connections.values()].reduce((sum, n) => sum + n, 0),
      limits,
      clients,
    };
  };
  const implementation = agentImplementation({
    host,
    token: options.token,
    log: options.log,
    notice,
    refusals,
    sending: (peer, bytes) => guard.sending(peer, bytes),
    reserve: (peer, bytes) => guard.reserve(peer, bytes),
    admitRequest: (peer, bytes) => guard.admitRequest(peer, bytes),
    usage,
    cases: options.cases,
    watch: () => options.adapter.watch,
  });
  server.addService(boundedService(agentService, lookup, limits.maxWrsPerPost * FIELDS_PER_WR), implementation);
  new HealthImplementation({ '': 'SERVING', [AGENT_SERVICE_NAME]: 'SERVING' }).addToServer(server);
  const injector = server.createConnectionInjector(credentialsOf(options.tls));
  const listener = await listen(endpoint, guard, (socket) => injector.injectConnection(socket));
  const { port } = listener.address() as import('node:net').AddressInfo;
  return {
    address: `${endpoint.host}:${port}`,
    host,
    connections: guard,
    async close() {
      listener.close();
      guard.closeAll();
      injector.destroy();
      server.forceShutdown();
      await host.closeAll();
      await options.adapter.dispose();
      refusals.close();
    },
  };
}
