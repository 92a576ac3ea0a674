import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../spec/errors.js';

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
  return `install the packages with: sudo sh ${join(projectRoot(), 'vm/install-deps.sh')}`;
}

/** Where built kernel images and initramfs files are kept between runs (git-ignored). */
export function vmCacheDir(): string {
  return join(projectRoot(), '.vm-cache');
}

/** Where vm/bundle.mjs puts the guest's bundle of the CLI and the workers. */
const GUEST_BUNDLE = 'dist/guest/bundle';

/** Whether this module runs from the guest bundle rather than from dist/. */
const bundled = fileURLToPath(import.meta.url).includes(`/${GUEST_BUNDLE}/`);

/**
 * A built entry point (e.g. `suites/ibverbs-worker.js`) as the running code was built: from the
 * bundle when this code is bundled (a worker bundled like its client), else under dist/.
 */
export function builtEntry(distPath: string): string {
  return bundled ? join(projectRoot(), GUEST_BUNDLE, `${distPath.replace(/\.js$/, '').replaceAll('/', '-')}.js`) : join(projectRoot(), 'dist', distPath);
}

/**
 * The CLI the guest runs: the bundle, refused when it is older than the last tsc build (it would
 * run stale code).
 */
export function guestCli(): string {
  const root = projectRoot();
  const cli = join(root, GUEST_BUNDLE, 'main.js');
  const buildInfo = join(root, 'dist/.tsbuildinfo');
  if (!existsSync(cli) || (existsSync(buildInfo) && statSync(buildInfo).mtimeMs > statSync(cli).mtimeMs)) {
    throw new UserError(`the guest bundle ${cli} is missing or older than dist/`, { hint: 'build it with `npm run build`' });
  }
  return cli;
}
