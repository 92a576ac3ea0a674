import { UserError } from '../../spec/errors.js';

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
 * An agent drives a device for whoever connects: reachable from the network, it must know who
 * connects (a token, or a client certificate signed by --client-ca), unless the user says the
 * network is trusted. TLS alone proves who the agent is, not who the client is: anyone who has the
 * (public) CA certificate could drive the device.
 */
export function checkExposure(listen: Endpoint, guards: { tls: boolean; clientCa: boolean; token: boolean; insecure: boolean }): void {
  if (isLoopback(listen.host) || guards.clientCa || guards.token || guards.insecure) return;
  const why = guards.tls
    ? 'TLS alone authenticates the agent to its clients, not the clients to the agent: anyone who trusts its CA could drive the device'
    : 'anyone who can reach it could drive the device';
  throw new UserError(`refusing to listen on ${listen.address} without a token or client certificates: ${why}`, {
    hint: 'add --token-file FILE, or --client-ca CA.pem (mutual TLS, with --tls-cert/--tls-key); or --insecure if the network is trusted',
  });
}
