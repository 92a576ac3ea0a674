/**
 * The kernel worker: a separate Node process that holds the rvtc control sessions and serves them
 * to kernelAdapter over stdin/stdout (adapters/ibverbs/protocol.ts), and runs whole built-in cases on
 * them (suites/case-worker.ts), which is why its entry sits with the suites. A kernel oops during one of its
 * write()s kills this process (the oops kills the task that was in the kernel); the parent reports
 * it and the kernel log says why.
 *
 *   node dist/suites/kernel-worker.js DEVICE
 *
 * RVT_KERNEL_FAULT_BEFORE=<call>:<warn|sleep> (tests only) asks the module, before serving that
 * call, for a WARN or a sleep in atomic context (the module must be loaded with test_faults=1), to
 * prove that a splat during a case fails it.
 */
import { serveKernelWorker } from '../adapters/kernel/kernel-worker.js';
import { serveCase } from './case-worker.js';

serveKernelWorker(process.argv[2], process.env.RVT_KERNEL_FAULT_BEFORE, serveCase);
