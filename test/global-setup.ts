import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The tests that start the CLI as a process run the built program as a user would (and the VM
 * tests its guest bundle), so the build must be current: `npm run build` when a source is newer
 * than the last build (scripts/build-if-stale.mjs), else nothing. tsc's own incremental check of
 * an unchanged tree cost every `npm test` 3-5 s before its first test.
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [`${root}scripts/build-if-stale.mjs`], { cwd: root, stdio: 'inherit' });
}
