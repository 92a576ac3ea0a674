/**
 * The kernel worker: a separate Node process that holds the rvtc control sessions and serves them
 * to kernelAdapter over stdin/stdout (adapters/rxe/protocol.ts). A kernel oops during one of its
 * write()s kills this process (the oops kills the task that was in the kernel); the parent reports
 * it and the kernel log says why.
 *
 *   node dist/adapters/kernel/worker.js DEVICE
 *
 * RVT_KERNEL_FAULT_BEFORE=<call>:<warn|sleep> (tests only) asks the module, before serving that
 * call, for a WARN or a sleep in atomic context (the module must be loaded with test_faults=1), to
 * prove that a splat during a case fails it.
 */
import { NO_LIMITS } from '../remote/budget.js';
import { SessionHost } from '../remote/session-host.js';
import { serveWorker } from '../remote/serve-worker.js';
import type { Request } from '../rxe/protocol.js';
import { Fault, Op, TestFaultReq } from './abi.js';
import { KernelControl } from './control.js';
import { kernelDeviceAdapter } from './device-adapter.js';

const device = process.argv[2];
if (device === undefined) {
  process.stderr.write('kernel worker: usage: worker.js DEVICE\n');
  process.exit(2);
}
const host = new SessionHost(kernelDeviceAdapter(device), NO_LIMITS);
const fault = faultBefore(process.env.RVT_KERNEL_FAULT_BEFORE);

function faultBefore(spec: string | undefined): { call: string; kind: number } | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^(\w+):(warn|sleep)$/.exec(spec);
  if (match === null) throw new Error(`RVT_KERNEL_FAULT_BEFORE must be <call>:<warn|sleep>, not ${spec}`);
  return { call: match[1] as string, kind: match[2] === 'warn' ? Fault.WARN : Fault.SLEEP_IN_ATOMIC };
}

function provoke(kind: number, on: string): void {
  const control = new KernelControl(on);
  try {
    control.request(Op.TEST_FAULT, TestFaultReq.encode({ kind }));
  } finally {
    control.close();
  }
}

async function handle(request: Request): Promise<unknown> {
  switch (request.kind) {
    case 'info':
      return host.info();
    case 'open':
      return host.open();
    case 'call':
      if (fault?.call === request.call) provoke(fault.kind, device as string);
      return host.call(request.session, request.call, request.args);
    case 'close':
      return host.close(request.session);
  }
}

serveWorker('kernel worker', handle, () => host.closeAll());
