import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** A project of its own whose build only counts itself and stamps, as the real build ends. */
function project(): { root: string; builds: () => number; check: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'rvt-stale-'));
  mkdirSync(join(root, 'scripts'));
  mkdirSync(join(root, 'dist'));
  mkdirSync(join(root, 'spec'));
  cpSync(join(ROOT, 'scripts/build-if-stale.mjs'), join(root, 'scripts/build-if-stale.mjs'));
  const count = "require('fs').appendFileSync('builds', 'x')";
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', scripts: { build: `node -e "${count}" && node scripts/build-if-stale.mjs --stamp` } }));
  writeFileSync(join(root, 'spec/a.ts'), 'export const a = 1;\n');
  return {
    root,
    builds: () => {
      try {
        return readFileSync(join(root, 'builds'), 'utf8').length;
      } catch {
        return 0;
      }
    },
    check: () => {
      execFileSync(process.execPath, [join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'ignore' });
    },
  };
}

describe('scripts/build-if-stale.mjs', () => {
  it('builds when nothing was built, a source is newer, or a source was added or renamed; not otherwise', () => {
    const p = project();
    p.check();
    expect(p.builds()).toBe(1);
    p.check();
    expect(p.builds()).toBe(1);
    // a scratch file that is no source, in a source folder
    writeFileSync(join(p.root, 'spec/notes.txt'), 'x');
    p.check();
    expect(p.builds()).toBe(1);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(p.root, 'spec/a.ts'), later, later);
    p.check();
    expect(p.builds()).toBe(2);
    // a rename keeps the file's time: only the list of files shows it
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(p.root, 'spec/a.ts'), earlier, earlier);
    renameSync(join(p.root, 'spec/a.ts'), join(p.root, 'spec/b.ts'));
    p.check();
    expect(p.builds()).toBe(3);
    p.check();
    expect(p.builds()).toBe(3);
  });

  it('runs the script after `--` in its own process, with the arguments after it, once the build is current', () => {
    const p = project();
    writeFileSync(join(p.root, 'echo.mjs'), "process.stdout.write(JSON.stringify({ argv: process.argv.slice(1) }));\n");
    const out = execFileSync(process.execPath, [join(p.root, 'scripts/build-if-stale.mjs'), '--', 'echo.mjs', 'run', '--stamp', '--out', 'x'], { cwd: p.root, encoding: 'utf8' });
    const seen = JSON.parse(out) as { argv: string[] };
    // the script sees itself as argv[1], as `node echo.mjs ...` would; its own --stamp is its argument, not the stamp's
    expect(seen.argv).toEqual([join(p.root, 'echo.mjs'), 'run', '--stamp', '--out', 'x']);
    expect(p.builds()).toBe(1);
  });
});
