/**
 * The ibverbs worker: a separate Node process that loads the native binding and serves its sessions
 * to rxeAdapter over stdin/stdout (adapters/ibverbs/protocol.ts), and runs whole built-in cases on them
 * (suites/case-worker.ts), which is why its entry sits with the suites. A crash in native code
 * kills this process only; the parent reports it as the case's result and starts a fresh worker.
 *
 *   node dist/suites/ibverbs-worker.js [DEVICE]
 *
 * RVT_RXE_CRASH_BEFORE=<request kind or call name>:<segv|fpe|abort> (tests only) makes the worker
 * crash on purpose when that request or call comes, to prove the isolation.
 */
import { serveIbverbsWorker } from '../adapters/ibverbs/worker.js';
import { serveCase } from './case-worker.js';

serveIbverbsWorker(process.argv[2], process.env.RVT_RXE_CRASH_BEFORE, serveCase);
