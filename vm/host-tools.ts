import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { UserError } from '../spec/errors.js';
import { installHint } from './project-root.js';

/** The absolute path of an executable on PATH (plus the sbin directories a non-root PATH may lack). */
export function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** Like findExecutable, but a missing tool is the user's to fix: say which package brings it. */
export function requireExecutable(name: string, debianPackage: string): string {
  const found = findExecutable(name);
  if (found === undefined) {
    throw new UserError(`${name} not found (Debian package ${debianPackage}); the rxe VM needs it`, {
      hint: installHint(),
    });
  }
  return found;
}
