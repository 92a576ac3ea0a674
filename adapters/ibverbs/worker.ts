/** The body of the ibverbs worker process: worker.ts starts it, and so does the guest's startup snapshot. */
import type { Adapter } from '../adapter.js';
import { beforeEachCall } from '../remote/before-each-call.js';
import { NO_LIMITS } from '../remote/budget.js';
import { SessionHost } from '../remote/session-host.js';
import { type CaseServer, Unavailable, serveWorker } from '../remote/serve-worker.js';
import { loadBinding, nativeAvailability } from './native/index.js';
import { nativeAdapter } from './native-adapter.js';
import { type Request, batchCallNames } from './protocol.js';

function crashBefore(spec: string | undefined): { name: string; kind: 'segv' | 'fpe' | 'abort' } | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^(\w+):(segv|fpe|abort)$/.exec(spec);
  if (match === null) throw new Error(`RVT_RXE_CRASH_BEFORE must be <call>:<segv|fpe|abort>, not ${spec}`);
  return { name: match[1] as string, kind: match[2] as 'segv' | 'fpe' | 'abort' };
}

/**
 * The worker's body: serves DEVICE (the first one libibverbs lists when undefined) on stdin/stdout
 * until the parent ends stdin. `crashSpec` is RVT_RXE_CRASH_BEFORE. With `serveCase`, it runs
 * whole cases too (`case` requests) on the same device.
 */
export function serveIbverbsWorker(requestedDevice: string | undefined, crashSpec: string | undefined, serveCase?: CaseServer): void {
  const crash = crashBefore(crashSpec);
  let device: { adapter: Adapter; host: SessionHost } | undefined;

  /** The device, opened on the first request that needs it, so a worker starts without one. */
  const opened = () => {
    if (device !== undefined) return device;
    const availability = nativeAvailability(requestedDevice === undefined ? {} : { device: requestedDevice });
    if (!availability.available) throw new Unavailable(availability.reason, availability.detail);
    const adapter = nativeAdapter(availability.binding, availability.device);
    // A case run here meets the test crash at the same call a request would.
    const crashing = (name: string) => {
      if (name === crash?.name) loadBinding().crashForTest(crash.kind);
    };
    device = { adapter: crash === undefined ? adapter : beforeEachCall(adapter, crashing), host: new SessionHost(adapter, NO_LIMITS, 'results') };
    return device;
  };
  const sessionHost = () => opened().host;

  const handle = async (request: Request): Promise<unknown> => {
    const names = request.kind === 'call' ? [request.call] : request.kind === 'batch' ? batchCallNames(request.steps) : [request.kind];
    if (crash !== undefined && names.includes(crash.name)) loadBinding().crashForTest(crash.kind);
    switch (request.kind) {
      case 'ready':
        opened();
        return null;
      case 'case':
        if (serveCase === undefined) throw new Error('this worker does not run cases');
        return serveCase(opened().adapter, request.case, request.progress);
      case 'info':
        return sessionHost().info();
      case 'open':
        return sessionHost().open();
      case 'call':
        return sessionHost().call(request.session, request.call, request.args);
      // one message, the steps run here against the binding (drains included), one answer
      case 'batch':
        return sessionHost().batch(request.session, request.steps);
      case 'close':
        return sessionHost().close(request.session);
    }
  };

  // The parent ended our stdin (dispose): release every device resource before exiting.
  serveWorker('ibverbs worker', handle, () => device?.host.closeAll() ?? Promise.resolve());
}
