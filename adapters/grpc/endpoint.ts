import { UserError } from '../../cli/errors.js';

/** HOST:PORT as the agent listens on it and the client dials it; an IPv6 host in brackets. */
export interface Endpoint {
  host: string;
  /** As grpc-js takes it: `host:port`, `[::1]:port`. */
  address: string;
}

export function parseEndpoint(flag: string, value: string): Endpoint {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(value);
  if (match === null || match[1] === undefined || Number(match[2]) > 65535) {
    throw new UserError(`${flag} '${value}' is not HOST:PORT`, { hint: `e.g. ${flag} 127.0.0.1:7471, or [::1]:7471 for IPv6` });
  }
  return { host: match[1], address: value };
}

/** Only this machine can reach these: the default, safe without credentials. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * An agent drives a device for whoever connects: reachable from the network, it must let in only
 * those with a certificate or the token, unless the user says the network is trusted.
 */
export function checkExposure(listen: Endpoint, guards: { tls: boolean; token: boolean; insecure: boolean }): void {
  if (isLoopback(listen.host) || guards.tls || guards.token || guards.insecure) return;
  throw new UserError(`refusing to listen on ${listen.address} without TLS or a token: anyone who can reach it could drive the device`, {
    hint: 'add --tls-cert/--tls-key (and --client-ca for client certificates) or --token-file FILE; or --insecure if the network is trusted',
  });
}
