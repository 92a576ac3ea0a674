import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI tests run the built program as a user would, so build it once first. */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.build.json`], {
    cwd: root,
    stdio: 'inherit',
  });
}
