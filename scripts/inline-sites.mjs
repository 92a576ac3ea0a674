#!/usr/bin/env node
// Writes adapters/kernel/inline-sites/<module>-<release>.json for each module named, from a
// Debian kernel debug package (linux-image-<release>-dbg, fetched with `apt-get download`, never
// installed): only the modules' .ko files are extracted, into a temporary folder removed after.
// Needs dpkg-deb, tar, llvm-dwarfdump, readelf and a built dist/ (npm run build).
//
//   node scripts/inline-sites.mjs /work/dbg/linux-image-6.1.0-57-amd64-dbg_6.1.192-3_amd64.deb rdmavt rdma_rxe
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { elfFunctions, inlineSiteTable } = await import(join(root, 'dist/adapters/kernel/inline-sites-dwarf.js'));
const { InlineSiteTable } = await import(join(root, 'dist/adapters/kernel/inline-sites.js'));

const [deb, ...modules] = process.argv.slice(2);
if (deb === undefined || modules.length === 0 || !modules.every((m) => /^\w+$/.test(m))) {
  console.error('usage: node scripts/inline-sites.mjs LINUX-IMAGE-DBG.deb MODULE...');
  process.exit(2);
}

const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
const source = run('dpkg-deb', ['-f', deb, 'Package', 'Version']).trim().split('\n').map((l) => l.replace(/^\w+: /, '')).join(' ');
const tmp = mkdtempSync(join(tmpdir(), 'inline-sites-'));
try {
  // tar exits 1 when a module is not in the package (Debian's 6.1 builds no siw): said below, per module
  spawnSync('sh', ['-c', `dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards ${modules.map((m) => `'*/${m}.ko'`).join(' ')}`, 'sh', deb, tmp], { stdio: 'inherit' });
  const found = walk(tmp).filter((path) => path.endsWith('.ko'));
  const outDir = join(root, 'adapters/kernel/inline-sites');
  mkdirSync(outDir, { recursive: true });
  for (const module of modules) {
    const ko = found.find((path) => path.endsWith(`/${module}.ko`));
    if (ko === undefined) {
      console.error(`${module}: not in ${deb}`);
      process.exitCode = 1;
      continue;
    }
    // usr/lib/debug/lib/modules/<release>/kernel/<source dir>/<module>.ko
    const match = /lib\/modules\/([^/]+)\/kernel\/(.+\/)[^/]+\.ko$/.exec(relative(tmp, ko));
    const buildId = /Build ID: ([0-9a-f]+)/.exec(run('readelf', ['-n', ko]))?.[1];
    if (match === null || buildId === undefined) throw new Error(`${ko}: no release in its path or no build-id note`);
    const [, release, sourceDir] = match;
    const { table, skipped } = inlineSiteTable({
      module,
      release,
      source,
      buildId,
      sourceDir,
      dwarf: run('llvm-dwarfdump', ['--debug-info', ko]),
      functions: elfFunctions(run('readelf', ['-sW', ko]), run('readelf', ['-SW', ko])),
    });
    const out = join(outDir, `${module}-${release}.json`);
    writeFileSync(out, `${JSON.stringify(InlineSiteTable.parse(table), null, 2)}\n`);
    const count = Object.values(table.sites).reduce((n, s) => n + s.length, 0);
    console.log(`${relative(root, out)}: ${Object.keys(table.sites).length} functions, ${count} sites (build-id ${buildId})`);
    for (const s of skipped) console.log(`  left out: ${s.function} at 0x${s.address.toString(16)}: ${s.why}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
