/** The body of the kernel worker process: suites/kernel-worker.ts starts it, and so does the guest's startup snapshot. */
import { NO_LIMITS } from '../remote/budget.js';
import { SessionHost } from '../remote/session-host.js';
import { beforeEachCall } from '../remote/before-each-call.js';
import { type CaseServer, serveWorker } from '../remote/serve-worker.js';
import { type Request, batchCallNames } from '../ibverbs/protocol.js';
import { Fault, Op, TestFaultReq } from './abi.js';
import { KernelControl } from './control.js';
import { kernelDeviceAdapter } from './device-adapter.js';

function faultBefore(spec: string | undefined): { call: string; kind: number } | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^(\w+):(warn|sleep)$/.exec(spec);
  if (match === null) throw new Error(`RVT_KERNEL_FAULT_BEFORE must be <call>:<warn|sleep>, not ${spec}`);
  return { call: match[1] as string, kind: match[2] === 'warn' ? Fault.WARN : Fault.SLEEP_IN_ATOMIC };
}

const isProbe = (hosted: unknown) => typeof hosted === 'object' && hosted !== null && 'probe' in hosted;

function provoke(kind: number, on: string): void {
  const control = new KernelControl(on);
  try {
    control.request(Op.TEST_FAULT, TestFaultReq.encode({ kind }));
  } finally {
    control.close();
  }
}

/**
 * The worker's body: serves DEVICE's kernel verbs through rvtc on stdin/stdout until the parent
 * ends stdin. `faultSpec` is RVT_KERNEL_FAULT_BEFORE. With `serveCase`, it runs whole cases too
 * (`case` requests), with the fault before the same call.
 */
export function serveKernelWorker(device: string | undefined, faultSpec: string | undefined, serveCase?: CaseServer): void {
  if (device === undefined) {
    process.stderr.write('kernel worker: usage: worker.js DEVICE\n');
    process.exit(2);
  }
  const adapter = kernelDeviceAdapter(device);
  const host = new SessionHost(adapter, NO_LIMITS, 'results');
  const fault = faultBefore(faultSpec);
  const provoking = (name: string) => {
    if (name === fault?.call) provoke(fault.kind, device);
  };
  const forCases = fault === undefined ? adapter : beforeEachCall(adapter, provoking);

  const handle = async (request: Request): Promise<unknown> => {
    switch (request.kind) {
      case 'info':
        return host.info();
      case 'open':
        return host.open();
      case 'call':
        if (fault?.call === request.call) provoke(fault.kind, device);
        return host.call(request.session, request.call, request.args);
      case 'batch':
        if (fault !== undefined && batchCallNames(request.steps).includes(fault.call)) provoke(fault.kind, device);
        return host.batch(request.session, request.steps);
      case 'close':
        return host.close(request.session);
      case 'ready':
        return null;
      case 'case':
        if (serveCase === undefined) throw new Error('this worker does not run cases');
        // The test fault is for the cases: a probe that posts (the srq probe does) must not meet it.
        return serveCase(isProbe(request.case) ? adapter : forCases, request.case, request.progress);
    }
  };

  serveWorker('kernel worker', handle, () => host.closeAll());
}
