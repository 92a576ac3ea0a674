#!/usr/bin/env node
// Bundles what the VM's guest runs (the CLI and the two device workers) into dist/guest/bundle/.
// Under the guest's emulated CPU, Node's ESM loader spends more time resolving, reading and linking
// the ~250 modules of dist/ than running them: the bundle loads the run command in about half the
// time (2.9 s against 5.3 s cold in the guest, measured). Run by `npm run build` after tsc, from
// dist/; the host keeps running dist/ itself.
import { existsSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Three levels below the root, like dist/spec/snapshots/: the modules that find files relative to
// themselves (the pinned snapshot, the .proto, package.json) find them from here as well.
const out = join(root, 'dist/guest/bundle');
// Entry names flatten the dist/ paths: project-root.ts maps a worker's dist/ path to its entry here.
const input = {
  main: join(root, 'dist/cli/main.js'),
  'suites-ibverbs-worker': join(root, 'dist/suites/ibverbs-worker.js'),
  'suites-kernel-worker': join(root, 'dist/suites/kernel-worker.js'),
};

// Up to date when newer than what it is made of: tsc's last emit (tsc leaves .tsbuildinfo alone
// when it emits nothing), this script and the installed dependencies. Saves every build 0.7 s.
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Infinity);
const inputs = [join(root, 'dist/.tsbuildinfo'), fileURLToPath(import.meta.url), join(root, 'package-lock.json')];
if (inputs.every((path) => mtime(path) <= mtime(join(out, 'main.js')) && existsSync(join(out, 'main.js')))) process.exit(0);

await rm(out, { recursive: true, force: true });
// gRPC (its .proto files) finds files through __dirname, which a bundle cannot keep: it loads from
// node_modules as usual (it is not on a guest run's path).
const external = [/^@grpc\//, /^grpc-health-check/, /^protobufjs/];
const bundle = await rolldown({ input, platform: 'node', external, logLevel: 'silent' });
await bundle.write({ dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
await bundle.close();

// The entry of the guest's V8 startup snapshot (cli/guest-snapshot-entry.ts, vm/guest-snapshot.ts):
// one CommonJS file, since `node --build-snapshot` runs a single script whose require() reaches
// Node's built-ins only. The external packages are required on first use instead of at the top,
// through a require made at run time: none is needed to build the heap, and none may be loaded then.
const snapshotEntry = join(out, 'snapshot-entry.cjs');
const snapshot = await rolldown({ input: join(root, 'dist/cli/guest-snapshot-entry.js'), platform: 'node', external, logLevel: 'silent' });
await snapshot.write({ file: snapshotEntry, format: 'cjs', codeSplitting: false });
await snapshot.close();
const externalRequire = /let (\w+) = require\("(@grpc\/[\w-]+|grpc-health-check|protobufjs)"\);\n(?:\1 = __toESM\(\1, 1\);\n)?/g;
let code = (await readFile(snapshotEntry, 'utf8')).replace(externalRequire, (line, name, id) => `let ${name} = __lazyExternal(${JSON.stringify(id)}, ${line.includes('__toESM')});\n`);
const left = /require\("(@grpc\/|grpc-health-check|protobufjs)/.exec(code);
if (left !== null) throw new Error(`vm/bundle.mjs: ${snapshotEntry} still requires ${left[1]} at load: rolldown's output changed, update externalRequire`);
const lazyExternal = `// A package outside the snapshot, required when first used (vm/bundle.mjs).
const __lazyExternal = (id, esm) => {
\tlet loaded;
\tconst load = () => (loaded ??= ((mod) => (esm ? __toESM(mod, 1) : mod))(require("node:module").createRequire(__filename)(id)));
\treturn new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, key) => Object.getOwnPropertyDescriptor(load(), key) });
};
`;
// ASCII only: a source with one character beyond it becomes a two-byte string of 4.3 MB, which
// `npm run conform` decoded from UTF-8 in 30-40 ms at every start. Each such UTF-16 unit becomes
// \uXXXX, which means the same in a string, a regular expression, a comment or an identifier; not
// in the raw text of a tagged template, so a bundle with one there is refused.
const rawNonAscii = [];
(function walk(node) {
  if (node === null || typeof node !== 'object') return;
  if (node.type === 'TaggedTemplateExpression' && node.quasi.quasis.some((q) => /[^\0-\x7f]/.test(q.value.raw))) rawNonAscii.push(node.quasi.quasis[0].value.raw.slice(0, 40));
  for (const value of Object.values(node)) if (value !== null && typeof value === 'object') walk(value);
})(parseAst(code, { lang: 'js', sourceType: 'script' }));
if (rawNonAscii.length > 0) throw new Error(`vm/bundle.mjs: ${snapshotEntry} has non-ASCII text in tagged templates (${rawNonAscii.join('; ')}): escaping it would change their raw text`);
const ascii = code.replace(/[^\0-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
await writeFile(snapshotEntry, lazyExternal + ascii);
