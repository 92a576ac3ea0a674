import { UserError } from '../../spec/errors.js';
import type { Adapter } from '../adapter.js';
import { readCertificate, readKeyPair, readToken, type Warn } from './credential-files.js';

/** The options of the grpc adapter: where the agent is and how to prove who we are (flags in adapters/registry.ts). */
export interface GrpcFlags {
  target?: string | undefined;
  tlsCa?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  tokenFile?: string | undefined;
  tlsServerName?: string | undefined;
}

/** Loads the gRPC client (grpc-js, protobufjs) only for a grpc run: it is most of the CLI's start-up cost. */
export async function grpcAdapterFromFlags(flags: GrpcFlags): Promise<Adapter> {
  if (flags.target === undefined) {
    throw new UserError('--adapter grpc needs --target HOST:PORT: where the agent listens', {
      hint: 'start one on the machine with the device (rvt-conform agent --adapter NAME --listen HOST:PORT) and pass its address',
    });
  }
  const credentials = clientCredentials(flags);
  const { grpcAdapter } = await import('./client.js');
  return grpcAdapter({ target: flags.target, ...credentials });
}

/** A client's credentials as its flags name them (--tls-ca, --tls-cert, --tls-key, --token-file), read and checked before it connects. */
export function clientCredentials(flags: GrpcFlags, warn: Warn = (line) => process.stderr.write(`rvt-conform: warning: ${line}\n`)): { tls: { ca?: Buffer | undefined; cert?: Buffer; key?: Buffer; serverName?: string | undefined } | undefined; token: string | undefined } {
  const pair = readKeyPair(flags.tlsCert, flags.tlsKey, warn);
  const ca = flags.tlsCa === undefined ? undefined : readCertificate('--tls-ca', flags.tlsCa, warn).pem;
  return {
    tls: ca === undefined && pair === undefined ? undefined : { ca, ...pair, serverName: flags.tlsServerName },
    token: flags.tokenFile === undefined ? undefined : readToken('--token-file', flags.tokenFile),
  };
}
