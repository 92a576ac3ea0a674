import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'rvt-conform';

/**
 * The project's root directory, found by walking up from this module to our package.json.
 * Works both from the sources (vitest, tsx) and from the compiled copy under dist/.
 */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readName(manifest) === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json of ${PACKAGE_NAME} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function readName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}

/** The command a user runs to install what the VM runner and the native binding need. */
export function installHint(): string {
  return `install the packages with: sudo sh ${join(projectRoot(), 'adapters/rxe/vm/install-deps.sh')}`;
}

/** Where built kernel images and initramfs files are kept between runs (git-ignored). */
export function vmCacheDir(): string {
  return join(projectRoot(), '.vm-cache');
}
