#!/usr/bin/env node
// Builds the rxe verbs addon (build/Release/rvt_verbs.node) and the plain C benchmark baseline
// (build/post_loop), offline: node-gyp gets --nodedir pointing at the running Node's own headers
// and never downloads anything. Run it as `npm run build:native`; it is not an install hook, so a
// machine without libibverbs can still `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const installScript = join(root, 'vm/install-deps.sh');
const started = Date.now();

function fail(message, hint) {
  process.stderr.write(`build-native: ${message}\n${hint ? `  ${hint}\n` : ''}`);
  process.exit(1);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: here, stdio: 'inherit' });
  if (result.error) fail(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
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
const nodeGyp = join(root, 'node_modules/.bin/node-gyp');
if (!existsSync(nodeGyp)) fail(`${nodeGyp} not found`, 'run npm ci first');

run(nodeGyp, ['configure', 'build', `--nodedir=${nodedir}`, '--jobs=max', '--loglevel=warn']);

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
