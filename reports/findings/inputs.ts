import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../spec/errors.js';

const RESULTS = 'results.json';

/** results.json files under a folder, in name order; symbolic links to folders are not followed (no loops), hidden folders skipped. */
function resultsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      if (entry.name.startsWith('.')) return [];
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return resultsUnder(path);
      return entry.name === RESULTS ? [path] : [];
    });
}

/**
 * The results files a command line names: a file as given (read and checked by readResults), a
 * folder searched for results.json. A path that does not exist, or a folder with none, is a user
 * error naming it. Each file once, in the order given.
 */
export function resultsFiles(paths: readonly string[]): string[] {
  const files = paths.flatMap((path) => {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { hint: 'give results.json files or folders that hold them' });
    }
    if (!isDirectory) return [path];
    const found = resultsUnder(path);
    if (found.length === 0) throw new UserError(`no ${RESULTS} under ${path}`, { hint: "give the --out folder of 'rvt-conform run', or a folder of such folders" });
    return found;
  });
  return [...new Set(files)];
}
