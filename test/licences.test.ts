import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** What `npm pack` would put in the package (without building it: the licences are source files). */
async function packedFiles(): Promise<string[]> {
  const { stdout } = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
  return (JSON.parse(stdout) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
}

/** The SPDX identifiers a file declares in its first lines. */
const spdxOf = (file: string) => /SPDX-License-Identifier:\s*(.+?)\s*(?:\*\/)?$/m.exec(readFileSync(join(ROOT, file), 'utf8').split('\n').slice(0, 3).join('\n'))?.[1];

describe('licences a legal review accepts', () => {
  it('ships the MIT LICENSE and the GPL-2.0 text of its kernel modules, and says both in package.json', async () => {
    const files = await packedFiles();
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'LICENSES/GPL-2.0']));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
    expect(pkg.license).toBe('MIT AND GPL-2.0-only');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(readFileSync(join(ROOT, 'LICENSES/GPL-2.0'), 'utf8')).toMatch(/GNU GENERAL PUBLIC LICENSE\s+Version 2, June 1991/);
    // the kernel modules declare GPL-2.0 (LICENSE says so of them); the rest is MIT, declared or not
    const sources = files.filter((f) => /\.(c|h)$|Kbuild$/.test(f));
    const kernel = new Set(sources.filter((f) => f.startsWith('adapters/kernel/')).map((f) => spdxOf(f) ?? `none in ${f}`));
    expect([...kernel].sort()).toEqual(['GPL-2.0', 'GPL-2.0 OR MIT']);
    expect(sources.filter((f) => !f.startsWith('adapters/kernel/') && ![undefined, 'MIT'].includes(spdxOf(f)))).toEqual([]);
  });
});
