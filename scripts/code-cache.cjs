#!/usr/bin/env node
// Runs a CommonJS script as `node SCRIPT ARGS...` would, compiled with a V8 code cache kept beside
// it (SCRIPT.v8cache): `node scripts/code-cache.cjs SCRIPT ARGS...`. `npm run conform` runs the
// one-file CLI (dist/guest/bundle/snapshot-entry.cjs, which vm/bundle.mjs makes for the guest's
// startup snapshot) this way: with the functions a run compiled taken from the cache, a run of the
// model costs about a fifth less CPU than the ESM bundle, where Node 20 has no code cache.
//
// The first run, and the first after the script changed (V8 rejects a cache whose source or flags
// differ), writes the cache when the process exits, so that it holds what that run compiled. A
// cache that cannot be written (an installed package on a read-only disk) is only a slower start.
//
// `--warm` first (npm run build does this): nothing to do when the cache is current; else the run
// writes it, and exits 0 whatever its verdict, since a warm-up is no verdict.
'use strict';
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, resolve } = require('node:path');
const vm = require('node:vm');

const warm = process.argv[2] === '--warm';
const [target, ...args] = process.argv.slice(warm ? 3 : 2);
if (target === undefined) {
  process.stderr.write('code-cache.cjs: usage: node scripts/code-cache.cjs [--warm] SCRIPT.cjs [ARGS...]\n');
  process.exit(2);
}
const filename = resolve(target);
const cacheFile = `${filename}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new vm.Script(Module.wrap(readFileSync(filename, 'utf8')), {
  filename,
  cachedData,
  // the script's own import() (an external adapter module) goes through Node's loader, as in a module
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});

const current = cachedData !== undefined && script.cachedDataRejected !== true;
if (warm && current) process.exit(0);
if (warm) {
  process.once('exit', () => {
    process.exitCode = 0;
  });
}
if (!current) {
  process.once('exit', () => {
    const temp = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    } catch {
      rmSync(temp, { force: true });
    }
  });
}

const mod = new Module(filename, null);
mod.filename = filename;
mod.paths = Module._nodeModulePaths(dirname(filename));
process.argv = [process.argv[0], filename, ...args];
script.runInThisContext()(mod.exports, Module.createRequire(filename), mod, filename, dirname(filename));
