import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../../cli/errors.js';
import { addonPath } from './native/index.js';
import { projectRoot } from './vm/project-root.js';
import { runInVm } from './vm/run.js';

/** Boot, a full suite under TCG, power-off: minutes; an hour means something hangs. */
const VM_RUN_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * `rvt-conform run --adapter rxe --vm ...`: the same run command, inside the rxe VM. The guest sees
 * the host root read-only and the current directory read-write, so reports must go under it.
 * Returns the guest run's exit status.
 */
export async function runRunInVm(runArgs: readonly string[], outDir: string): Promise<number> {
  const workDir = process.cwd();
  const out = resolve(outDir);
  if (relative(workDir, out).startsWith('..')) {
    throw new UserError(`with --vm, --out must be inside the current directory (${workDir}): the guest can write only there`, {
      hint: `run from a directory that contains ${out}, or give a relative --out`,
    });
  }
  if (!existsSync(addonPath())) {
    throw new UserError('the native binding is not built, so the VM would have nothing to run', { hint: 'npm run build:native' });
  }
  const main = join(projectRoot(), 'dist/cli/main.js');
  process.stderr.write('rvt-conform: booting the rxe VM (about 10 s before the run starts)\n');
  const result = await runInVm({ command: [process.execPath, main, 'run', ...runArgs], workDir, timeoutMs: VM_RUN_TIMEOUT_MS });
  process.stderr.write(`rvt-conform: the run in the VM exited with ${result.exitCode} (${(result.durationMs / 1000).toFixed(1)} s with boot)\n`);
  return result.exitCode;
}
