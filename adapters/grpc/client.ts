import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { z } from 'zod';
import { InfrastructureError } from '../../spec/errors.js';
import { type Adapter, AdapterInfo, type Session } from '../adapter.js';
import { type CallName, calls } from '../calls.js';
import { remoteSession } from '../remote/remote-session.js';
import { caseStream } from './case-stream.js';
import { parseEndpoint } from './endpoint.js';
import { callMethods, closeSessionMethod, infoMethod, openSessionMethod } from './methods.js';
import { withSession, withToken } from './metadata.js';
import { StatusError, isServiceError, serviceError, statusName } from './status.js';
import { streamSessions } from './stream-session.js';

export interface GrpcClientOptions {
  /** The agent's HOST:PORT. */
  target: string;
  /**
   * TLS to the agent: the CA that signed its certificate, this client's pair for mutual TLS, and
   * the name to check in the agent's certificate when it is not the --target host (an agent
   * reached by IP address whose certificate names it by DNS name).
   */
  tls?: { ca?: Buffer | undefined; cert?: Buffer | undefined; key?: Buffer | undefined; serverName?: string | undefined } | undefined;
  token?: string | undefined;
  /** Each call's deadline. */
  callTimeoutMs?: number;
  /**
   * How a session's calls travel: on one stream (rpc Session, the default), or one unary rpc each
   * under a lease (the protocol's first form, kept for comparison and for agents before the stream).
   */
  transport?: 'stream' | 'unary';
  /**
   * Whether built-in cases run on the agent (rpc RunCases, the default: one message each way a case), or
   * here verb by verb (what an out-of-tree case always does).
   */
  casesOnAgent?: boolean;
}

type Definition = MethodDefinition<object, object>;

const nameOf = (definition: Definition) => definition.originalName ?? definition.path;

const DEFAULT_CALL_TIMEOUT_MS = 30_000;

export function channelCredentials(tls: GrpcClientOptions['tls']): grpc.ChannelCredentials {
  if (tls === undefined) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(tls.ca ?? null, tls.key ?? null, tls.cert ?? null);
}

/** The channel's options for TLS: the name checked in the agent's certificate (and sent as SNI and :authority), when given. */
export const channelOptions = (tls: GrpcClientOptions['tls']): grpc.ChannelOptions =>
  tls?.serverName === undefined ? {} : { 'grpc.ssl_target_name_override': tls.serverName, 'grpc.default_authority': tls.serverName };

/** What a TLS handshake that failed says, as the flag that fixes it; undefined for anything else. */
function tlsRefusal(details: string, target: string): InfrastructureError | undefined {
  // the agent's TLS alert 116 (certificate_required): it was started with --client-ca
  if (/certificate required|alert number 116/i.test(details)) {
    return new InfrastructureError(`the agent at ${target} requires a client certificate: pass --tls-cert/--tls-key`, {
      hint: "a certificate and key signed by the CA the agent was given with --client-ca (docs: the agent's TLS recipe)",
    });
  }
  if (/ERR_TLS_CERT_ALTNAME_INVALID|does not match certificate's altnames/.test(details)) {
    return new InfrastructureError(`the certificate of the agent at ${target} does not have the name checked: ${details}`, {
      hint: 'pass --tls-server-name with a name the certificate has (a DNS: or IP: subjectAltName), or reissue it with this one (IP:ADDRESS for an address)',
    });
  }
  return undefined;
}

/**
 * What a failed call means: an agent that cannot be reached, shuts down, is full, refuses the
 * credentials or does not answer is the infrastructure gone (an InfrastructureError: the run stops, saying what
 * and what to do); any other status fails the call, and the case with it.
 */
export function failure(error: unknown, target: string, call: string): Error {
  if (!isServiceError(error)) return error instanceof Error ? error : new Error(String(error));
  // grpc-js ends connection errors with a resolver note, empty for a plain HOST:PORT
  const details = error.details.replace(/\s*Resolution note:\s*$/, '');
  if (error.code === grpc.status.UNAVAILABLE) {
    const refused = tlsRefusal(details, target);
    if (refused !== undefined) return refused;
    return new InfrastructureError(`cannot reach the rvt-conform agent at ${target}: ${details}`, {
      hint: `start one there (rvt-conform agent --adapter NAME --listen ${target}), check --target, and that the TLS flags match the agent's`,
    });
  }
  // this client cancels only calls it no longer waits for (a run stopped, a case withdrawn): the agent did, shutting down
  if (error.code === grpc.status.CANCELLED) {
    return new InfrastructureError(`${call}: the agent at ${target} cancelled the call (shutting down?): ${details}`, {
      hint: 'check why the agent stopped (its log), restart it and run again',
    });
  }
  if (error.code === grpc.status.RESOURCE_EXHAUSTED) {
    return new InfrastructureError(`${call}: the agent at ${target} is full: ${details}`, {
      hint: 'wait for its other clients to finish, or start the agent with higher --max-* limits',
    });
  }
  if (error.code === grpc.status.UNAUTHENTICATED) {
    return new InfrastructureError(`the agent at ${target} refused this client: ${details}`, {
      hint: 'pass --token-file with the token the agent was started with',
    });
  }
  if (error.code === grpc.status.DEADLINE_EXCEEDED) {
    return new InfrastructureError(`${call}: no answer from the agent at ${target} in time: ${details}`, {
      hint: 'check that the agent is not stuck: its log has a line for each call it finished',
    });
  }
  return new StatusError(error.code, `${call} on the agent at ${target}: ${statusName(error.code)}: ${details}`);
}

/**
 * A call made before any case (Info, an operator's Health.Check or Usage) that the agent, or a
 * proxy in front of it, answered with an error status: nothing can be run against it, whatever the
 * status, so it is the infrastructure that is unusable (exit 2), not a case that failed.
 */
export function unusableAgent(error: unknown): unknown {
  if (!(error instanceof StatusError)) return error;
  return new InfrastructureError(error.message, { hint: "check the agent's log, and that --target reaches the rvt-conform agent itself (not a proxy that refuses the call)" });
}

/** The agent's Info reply, checked here: an agent of another version (or not an agent) is named, not a stack trace. */
function adapterInfo(wire: object, target: string): AdapterInfo {
  const parsed = AdapterInfo.safeParse({ ...(infoMethod.response.decode(wire) as object), via: `grpc://${target}` });
  if (parsed.success) return parsed.data;
  throw new InfrastructureError(`the agent at ${target} sent a malformed Info reply: ${z.prettifyError(parsed.error).replaceAll('\n', '; ')}`, {
    hint: 'run the same rvt-conform version on both sides (rvt-conform --version)',
  });
}

/**
 * The adapter that runs the suites against an rvt-conform agent on another machine: info() names
 * the agent's adapter and device (and how it was reached), each session is a lease on the agent,
 * and every call has a deadline.
 */
export function grpcAdapter(options: GrpcClientOptions): Adapter {
  const target = parseEndpoint('--target', options.target).address;
  // the agent bounds what it sends (its limits); an MR read is as large as the MR
  const client = new grpc.Client(target, channelCredentials(options.tls), { ...channelOptions(options.tls), 'grpc.max_receive_message_length': -1 });
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  const metadata = (session?: string) => {
    const m = new grpc.Metadata();
    if (options.token !== undefined) withToken(m, options.token);
    if (session !== undefined) withSession(m, session);
    return m;
  };

  const streams = streamSessions({ client, metadata: () => metadata(), timeoutMs, failure: (error, call) => failure(error, target, call) });

  const unary = (definition: Definition, request: object, session?: string) =>
    new Promise<object>((resolve, reject) => {
      const callOptions = { deadline: Date.now() + timeoutMs };
      client.makeUnaryRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadata(session), callOptions, (error, response) => {
        if (error) reject(failure(error, target, nameOf(definition)));
        else resolve(response ?? {});
      });
    });

  const streamed = (definition: Definition, request: object, session: string) =>
    new Promise<object[]>((resolve, reject) => {
      const items: object[] = [];
      const call = client.makeServerStreamRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadata(session), {
        deadline: Date.now() + timeoutMs,
      });
      call.on('data', (item: object) => items.push(item));
      call.on('error', (error) => reject(failure(error, target, nameOf(definition))));
      call.on('end', () => resolve(items));
    });

  /** Opens a lease and waits (within the deadline) for the session it names. */
  const lease = () =>
    new Promise<{ session: string; end: () => void }>((resolve, reject) => {
      const call = client.makeServerStreamRequest(openSessionMethod.path, openSessionMethod.requestSerialize, openSessionMethod.responseDeserialize, {}, metadata());
      const timer = setTimeout(() => {
        call.cancel();
        reject(failure(serviceError({ code: grpc.status.DEADLINE_EXCEEDED, details: `no session within ${timeoutMs} ms` }), target, 'openSession'));
      }, timeoutMs);
      // after the lease is granted its stream only ends: by CloseSession, or by our cancel
      call.on('error', (error) => {
        clearTimeout(timer);
        reject(failure(error, target, 'openSession'));
      });
      call.once('data', (message: { session?: string }) => {
        clearTimeout(timer);
        if (typeof message.session === 'string') resolve({ session: message.session, end: () => call.cancel() });
        else reject(new InfrastructureError(`openSession on the agent at ${target}: the agent named no session`, { hint: 'run the same rvt-conform version on both sides (rvt-conform --version)' }));
      });
    });

  const cases = caseStream({ client, target, metadata: () => metadata(), graceMs: timeoutMs, failure: (error, call) => failure(error, target, call) });

  return {
    ...(options.casesOnAgent === false ? {} : { caseHost: cases.caseHost }),
    async info() {
      const reply = await unary(infoMethod.definition, {}).catch((error: unknown) => {
        throw unusableAgent(error);
      });
      return adapterInfo(reply, target);
    },

    async open(): Promise<Session> {
      if (options.transport !== 'unary') return streams.open();
      const { session, end } = await lease();
      const invoke = async (name: CallName, args: unknown) => {
        const method = callMethods[name];
        // the request is checked before it leaves, by the same schema the agent checks it with
        const request = method.request.encode(calls[name].args.parse(args));
        if (method.streamed === undefined) return method.response.decode(await unary(method.definition, request, session));
        const items = await streamed(method.definition, request, session);
        return { [method.streamed]: items.map((item) => method.response.decode(item)) };
      };
      const close = async () => {
        try {
          await unary(closeSessionMethod, {}, session);
        } finally {
          end();
        }
      };
      return remoteSession(invoke, close);
    },

    async dispose() {
      cases.dispose();
      await streams.dispose();
      client.close();
    },
  };
}
