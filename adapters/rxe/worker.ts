/**
 * The ibverbs worker: a separate Node process that loads the native binding and serves its sessions
 * to rxeAdapter over stdin/stdout (adapters/rxe/protocol.ts). A crash in native code kills this
 * process only; the parent reports it as the case's result and starts a fresh worker.
 *
 *   node dist/adapters/rxe/worker.js [DEVICE]
 *
 * RVT_RXE_CRASH_BEFORE=<request kind or call name>:<segv|fpe|abort> (tests only) makes the worker
 * crash on purpose when that request arrives, to prove the isolation.
 */
import { NO_LIMITS } from '../remote/budget.js';
import { SessionHost } from '../remote/session-host.js';
import { Unavailable, serveWorker } from '../remote/serve-worker.js';
import { loadBinding, nativeAvailability } from './native/index.js';
import { nativeAdapter } from './native-adapter.js';
import type { Request } from './protocol.js';

const requestedDevice = process.argv[2];
const crash = crashBefore(process.env.RVT_RXE_CRASH_BEFORE);
let host: SessionHost | undefined;

function crashBefore(spec: string | undefined): { name: string; kind: 'segv' | 'fpe' | 'abort' } | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^(\w+):(segv|fpe|abort)$/.exec(spec);
  if (match === null) throw new Error(`RVT_RXE_CRASH_BEFORE must be <call>:<segv|fpe|abort>, not ${spec}`);
  return { name: match[1] as string, kind: match[2] as 'segv' | 'fpe' | 'abort' };
}

/** The host, created on the first request that needs the device, so a worker starts without one. */
function sessionHost(): SessionHost {
  if (host !== undefined) return host;
  const availability = nativeAvailability(requestedDevice === undefined ? {} : { device: requestedDevice });
  if (!availability.available) throw new Unavailable(availability.reason, availability.detail);
  host = new SessionHost(nativeAdapter(availability.binding, availability.device), NO_LIMITS);
  return host;
}

async function handle(request: Request): Promise<unknown> {
  const name = request.kind === 'call' ? request.call : request.kind;
  if (crash?.name === name) loadBinding().crashForTest(crash.kind);
  switch (request.kind) {
    case 'info':
      return sessionHost().info();
    case 'open':
      return sessionHost().open();
    case 'call':
      return sessionHost().call(request.session, request.call, request.args);
    case 'close':
      return sessionHost().close(request.session);
  }
}

// The parent ended our stdin (dispose): release every device resource before exiting.
serveWorker('ibverbs worker', handle, () => host?.closeAll() ?? Promise.resolve());
