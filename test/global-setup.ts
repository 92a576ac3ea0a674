import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The tests that start the CLI as a process run the built program as a user would (and the VM
 * tests its guest bundle), so build both once first.
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], {
    cwd: root,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [`${root}vm/bundle.mjs`], { cwd: root, stdio: 'inherit' });
}
