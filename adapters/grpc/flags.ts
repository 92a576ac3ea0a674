import { UserError } from '../../spec/errors.js';
import type { Adapter } from '../adapter.js';
import { readCredential, readKeyPair, readToken } from './credential-files.js';

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
  const pair = readKeyPair(flags.tlsCert, flags.tlsKey);
  const ca = flags.tlsCa === undefined ? undefined : readCredential('--tls-ca', flags.tlsCa);
  const { grpcAdapter } = await import('./client.js');
  return grpcAdapter({
    target: flags.target,
    tls: ca === undefined && pair === undefined ? undefined : { ca, ...pair, serverName: flags.tlsServerName },
    token: flags.tokenFile === undefined ? undefined : readToken('--token-file', flags.tokenFile),
  });
}
