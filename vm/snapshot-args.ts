/**
 * How a guest process starts from the V8 startup snapshot (vm/guest-snapshot.ts builds it, and
 * cli/guest-snapshot-entry.ts is what it holds): the CLI and both device workers come from one blob.
 */

/** Set in a guest job that runs from the blob, to its path: the worker client starts its workers from it too. */
export const SNAPSHOT_ENV = 'RVT_CONFORM_SNAPSHOT';
/** The entry's first argument for a worker rather than the CLI. */
export const SNAPSHOT_WORKER_FLAG = '--rvt-worker';

/** The workers the blob holds, by their dist/ path. */
const SNAPSHOT_WORKERS: Readonly<Record<string, string>> = {
  'suites/ibverbs-worker.js': 'ibverbs',
  'suites/kernel-worker.js': 'kernel',
};

/** Node's arguments (before the worker's own) that start the worker `script` from the blob, when this process runs from one. */
export function snapshotWorkerArgs(script: string): string[] | undefined {
  const blob = process.env[SNAPSHOT_ENV];
  const worker = SNAPSHOT_WORKERS[script];
  if (blob === undefined || blob === '' || worker === undefined) return undefined;
  return ['--snapshot-blob', blob, '--', SNAPSHOT_WORKER_FLAG, worker];
}
