#!/usr/bin/env node
// `npm run build` only when a source is newer than the last build: tsc's own incremental check
// costs 2.5 s on an unchanged tree, which was most of `npm run conform`. `npm run build` ends with
// `--stamp`, which writes the stamp only: tsc leaves its .tsbuildinfo alone when nothing changed.
// `-- SCRIPT ARGS...` then runs SCRIPT in this process, as `node SCRIPT ARGS...` would: a second
// Node start costs 60-70 ms, a share of `npm run conform`'s 1 s target.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'dist/.built');
const INPUTS = ['index.ts', 'spec', 'vm', 'adapters', 'guest', 'suites', 'reports', 'cli', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const SKIP = new Set(['node_modules', 'build', 'generated']);

/** The source files under `path` (.ts, .mjs, .json, .proto), each with its modification time. */
function sources(path, found = new Map()) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return found;
  if (info.isDirectory()) {
    for (const entry of readdirSync(path)) if (!SKIP.has(entry)) sources(join(path, entry), found);
  } else if (/\.(ts|mjs|json|proto)$/.test(path)) {
    found.set(path, info.mtimeMs);
  }
  return found;
}

const inputs = new Map();
for (const input of INPUTS) sources(join(root, input), inputs);
// The stamp lists the files of the last build: a file added, renamed or removed is a change its time alone would not show.
const listed = [...inputs.keys()].sort().join('\n');

const then = process.argv.indexOf('--');
const own = then === -1 ? process.argv : process.argv.slice(0, then);

if (own.includes('--stamp')) {
  writeFileSync(STAMP, `${listed}\n`);
} else {
  const stamp = existsSync(STAMP) ? { at: statSync(STAMP).mtimeMs, files: readFileSync(STAMP, 'utf8').trimEnd() } : undefined;
  const stale = stamp === undefined || stamp.files !== listed || [...inputs.values()].some((mtime) => mtime > stamp.at);
  if (stale) {
    const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

if (then !== -1 && process.argv[then + 1] !== undefined) {
  const script = resolve(process.argv[then + 1]);
  process.argv = [process.argv[0], script, ...process.argv.slice(then + 2)];
  await import(pathToFileURL(script).href);
}
