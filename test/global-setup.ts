import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepareKernelSource } from './kernel-source.js';

/**
 * The CLI tests run the built program as a user would, so build it once first; the kernel-source
 * tests share one extraction of the kernel tarball.
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], {
    cwd: root,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [`${root}adapters/rxe/vm/bundle.mjs`], { cwd: root, stdio: 'inherit' });
  await prepareKernelSource();
}
