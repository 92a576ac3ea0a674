import { join } from 'node:path';
import type { GuestKernel } from './kernel.js';
import { type JobModule } from './job-script.js';
import { buildModule } from './modules.js';
import { projectRoot, vmCacheDir } from './project-root.js';

/** The rvtc module's sources (the kernel adapter's side in the kernel): built against the guest kernel, loaded in the guest only. */
export const RVTC_SOURCES = 'adapters/kernel/module';

/** Builds (or takes from the cache) the rvtc module for `kernel`. */
export async function rvtcModule(kernel: GuestKernel): Promise<JobModule> {
  const started = performance.now();
  const built = await buildModule(kernel, vmCacheDir(), { sourceDir: join(projectRoot(), RVTC_SOURCES) });
  const path = built.modules.rvtc;
  if (path === undefined) throw new Error(`building ${RVTC_SOURCES} produced no rvtc.ko`);
  if (built.built) process.stderr.write(`rvt-conform: built rvtc.ko for ${kernel.release} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return { path };
}
