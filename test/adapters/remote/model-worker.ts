import { fileURLToPath } from 'node:url';
import type { Adapter } from '../../../adapters/adapter.js';
import { workerAdapter } from '../../../adapters/remote/worker-adapter.js';

/** The wr_id whose post kills the model worker with SIGSEGV (fixtures/model-worker.mjs). */
export const CRASH_WR_ID = 0xdeadn;

/** The production worker adapter over a worker that hosts the model: isolation without a device. */
export const modelWorkerAdapter = (options: { runsCases?: boolean; firstWorkerEnv?: Record<string, string> } = {}): Adapter =>
  workerAdapter({
    adapter: 'model-worker',
    script: fileURLToPath(new URL('fixtures/model-worker.mjs', import.meta.url)),
    label: 'model worker',
    remedies: {},
    ...options,
  });
