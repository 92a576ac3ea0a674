/** The body of the ibverbs worker process: worker.ts starts it, and so does the guest's startup snapshot. */
import { NO_LIMITS } from '../remote/budget.js';
import { SessionHost } from '../remote/session-host.js';
import { Unavailable, serveWorker } from '../remote/serve-worker.js';
import { loadBinding, nativeAvailability } from './native/index.js';
import { nativeAdapter } from './native-adapter.js';
import type { Request } from './protocol.js';

function crashBefore(spec: string | undefined): { name: string; kind: 'segv' | 'fpe' | 'abort' } | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^(\w+):(segv|fpe|abort)$/.exec(spec);
  if (match === null) throw new Error(`RVT_RXE_CRASH_BEFORE must be <call>:<segv|fpe|abort>, not ${spec}`);
  return { name: match[1] as string, kind: match[2] as 'segv' | 'fpe' | 'abort' };
}

/**
 * The worker's body: serves DEVICE (the first one libibverbs lists when undefined) on stdin/stdout
 * until the parent ends stdin. `crashSpec` is RVT_RXE_CRASH_BEFORE.
 */
export function serveIbverbsWorker(requestedDevice: string | undefined, crashSpec: string | undefined): void {
  const crash = crashBefore(crashSpec);
  let host: SessionHost | undefined;

  /** The host, created on the first request that needs the device, so a worker starts without one. */
  const sessionHost = (): SessionHost => {
    if (host !== undefined) return host;
    const availability = nativeAvailability(requestedDevice === undefined ? {} : { device: requestedDevice });
    if (!availability.available) throw new Unavailable(availability.reason, availability.detail);
    host = new SessionHost(nativeAdapter(availability.binding, availability.device), NO_LIMITS);
    return host;
  };

  const handle = async (request: Request): Promise<unknown> => {
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
  };

  // The parent ended our stdin (dispose): release every device resource before exiting.
  serveWorker('ibverbs worker', handle, () => host?.closeAll() ?? Promise.resolve());
}
