#!/usr/bin/env node
// Builds the rxe verbs addon (build/Release/rvt_verbs.node) and the plain C benchmark baseline
// (build/post_loop), offline: node-gyp gets --nodedir pointing at the running Node's own headers
// and never downloads anything. Run it as `npm run build:native` in a checkout, or `rvt-conform
// build-native` where the package is installed; it is not an install hook, so a machine without
// libibverbs can still install. Exit 2: a prerequisite is missing (the message says which); 1: the build failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const installScript = join(root, 'vm/install-deps.sh');
const started = Date.now();

function fail(message, hint, status = 2) {
  process.stderr.write(`build-native: ${message}\n${hint ? `  ${hint}\n` : ''}`);
  process.exit(status);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: here, stdio: 'inherit' });
  if (result.error) fail(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`, undefined, 1);
}

function output(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

const packagesHint = `install with: sudo apt-get install libibverbs-dev (or: sudo sh ${installScript})`;

if (!existsSync('/usr/include/infiniband/verbs.h')) {
  fail('/usr/include/infiniband/verbs.h not found: the libibverbs headers are missing', packagesHint);
}
if (output('cc', ['--version']) === undefined || output('c++', ['--version']) === undefined) {
  fail('no C/C++ compiler (cc, c++) found', 'install with: sudo apt-get install build-essential');
}
// The compiler prints the bare name back when it cannot find the library.
const libibverbs = output('cc', ['-print-file-name=libibverbs.so']);
if (libibverbs === undefined || !libibverbs.startsWith('/')) {
  fail('libibverbs.so (the link-time library) not found', packagesHint);
}

const prefix = resolve(dirname(process.execPath), '..');
const nodedir = [prefix, process.env.npm_config_nodedir].find(
  (dir) => dir !== undefined && dir !== '' && existsSync(join(dir, 'include/node/node_api.h')),
);
if (nodedir === undefined) {
  fail(
    `Node's headers (include/node/node_api.h) not found under ${prefix}`,
    'install the headers of this Node (Debian: they come with the nodejs package) or set npm_config_nodedir; ' +
      'this build never downloads them',
  );
}
/**
 * node-gyp: this checkout's (a devDependency), else the one npm brings (an installed package has no
 * devDependencies, and every npm carries node-gyp for its own installs).
 */
function findNodeGyp() {
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  } catch {}
  const npm = output('sh', ['-c', 'command -v npm']);
  const candidates = [
    process.env.npm_config_node_gyp,
    npm === undefined ? undefined : join(dirname(realpathSync(npm)), '../node_modules/node-gyp/bin/node-gyp.js'),
    join(prefix, 'lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
  ];
  return candidates.find((path) => path !== undefined && path !== '' && existsSync(path));
}
const nodeGyp = findNodeGyp();
if (nodeGyp === undefined) fail('node-gyp not found (neither installed here nor bundled with npm)', 'install npm (it brings node-gyp), or: npm i -g node-gyp');

run(process.execPath, [nodeGyp, 'configure', 'build', `--nodedir=${nodedir}`, '--jobs=max', '--loglevel=warn']);

mkdirSync(join(here, 'build'), { recursive: true });
run('cc', [
  '-O2', '-Wall', '-Wextra', '-std=gnu11',
  '-o', join(here, 'build/post_loop'),
  join(here, 'bench/post_loop.c'), join(here, 'src/post_loop.c'), join(here, 'src/shim.c'),
  '-libverbs',
]);

const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `build-native: built ${join(here, 'build/Release/rvt_verbs.node')} and ${join(here, 'build/post_loop')} in ${seconds} s\n`,
);
