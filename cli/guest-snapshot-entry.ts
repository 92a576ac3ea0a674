/**
 * The entry of the guest's V8 startup snapshot: the CLI's run path and both device workers in one
 * heap. vm/bundle.mjs bundles this file into one CommonJS script (dist/guest/bundle/
 * snapshot-entry.cjs) and vm/guest-snapshot.ts has the guest build the blob from it, once per
 * build: under the VM's emulated CPU, parsing and initialising these modules (zod's schemas above
 * all) cost more than a case, and a process started from the blob finds them done.
 *
 *   node --snapshot-blob BLOB -- run ...                       the CLI
 *   node --snapshot-blob BLOB -- --rvt-worker ibverbs [DEVICE] the ibverbs worker
 *   node --snapshot-blob BLOB -- --rvt-worker kernel DEVICE    the kernel worker
 *
 * Run directly (`node snapshot-entry.cjs ARGS`) it does the same without a blob.
 */
// First, before any schema is made.
import './zod-jitless.js';
import { startupSnapshot } from 'node:v8';
import { loadCitedSnapshot } from '../spec/snapshots/pinned.js';
import { serveKernelWorker } from '../adapters/kernel/kernel-worker.js';
import { serveIbverbsWorker } from '../adapters/ibverbs/worker.js';
import { serveCase } from '../suites/case-worker.js';
import { SNAPSHOT_WORKER_FLAG } from '../vm/snapshot-args.js';
import { main } from './program.js';
// What a guest run loads on demand, loaded here so that it is in the heap the blob keeps.
import './commands/run.js';
import './commands/fuzz.js';
import '../adapters/ibverbs/adapter.js';
import '../adapters/kernel/adapter.js';

function dispatch(args: string[]): void {
  if (args[0] === SNAPSHOT_WORKER_FLAG) {
    const [, worker, device] = args;
    if (worker === 'ibverbs') serveIbverbsWorker(device, process.env.RVT_RXE_CRASH_BEFORE, serveCase);
    else if (worker === 'kernel') serveKernelWorker(device, process.env.RVT_KERNEL_FAULT_BEFORE, serveCase);
    else {
      process.stderr.write(`rvt-conform: no worker named ${String(worker)} (ibverbs, kernel)\n`);
      process.exitCode = 2;
    }
    return;
  }
  void main([process.execPath, 'rvt-conform', ...args]);
}

// The pinned kernel-doc snapshots every run reads and validates (a second of emulated CPU): read
// once into the heap. vm/guest-snapshot.ts keys the blob on their bytes too.
if (startupSnapshot.isBuildingSnapshot()) loadCitedSnapshot();

// The environment and the arguments are read when a process starts from the blob, never when it is built.
if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(() => dispatch(process.argv.slice(1)));
else dispatch(process.argv.slice(2));
