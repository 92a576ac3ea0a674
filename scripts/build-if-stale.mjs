#!/usr/bin/env node
// `npm run build` only when a source is newer than the last build: tsc's own incremental check
// costs 2.5 s on an unchanged tree, which was most of `npm run conform`. `npm run build` ends with
// `--stamp`, which writes the stamp only: tsc leaves its .tsbuildinfo alone when nothing changed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist/.built');
const INPUTS = ['index.ts', 'spec', 'vm', 'adapters', 'suites', 'reports', 'cli', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const SKIP = new Set(['node_modules', 'build', 'generated']);

/** The newest modification time under `path` (files ending in .ts, .mjs, .json, .proto; a folder by its contents). */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return 0;
  if (!info.isDirectory()) return /\.(ts|mjs|json|proto)$/.test(path) ? info.mtimeMs : 0;
  let latest = info.mtimeMs; // a deleted file shows only as its folder's change
  for (const entry of readdirSync(path)) if (!SKIP.has(entry)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

if (process.argv.includes('--stamp')) {
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
} else {
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  if (INPUTS.some((input) => newest(join(root, input)) > built)) {
    const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
