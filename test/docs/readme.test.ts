import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** The pages a reader follows: the README and every page under docs/. */
async function pages(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

describe('the README and the pages per role', () => {
  it('keeps the README to the quick start, the commands and the links: one page a newcomer reads to the end', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm run conform');
    expect(readme).toContain('npm test');
    // the reference, design notes and measurements live under docs/ (it was 61 KB)
    expect(readme.length).toBeLessThan(10_000);
    for (const page of ['docs/reference.md', 'docs/driver-developer.md', 'docs/vendor-lab.md', 'docs/CI.md', 'docs/API.md', 'docs/DESIGN.md']) {
      expect(readme, page).toContain(`](${page})`);
    }
  });

  it('links only to files that exist', async () => {
    for (const page of await pages()) {
      const text = await readFile(join(ROOT, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^(https?:|mailto:|#)/.test(target)) continue;
        expect(existsSync(join(ROOT, dirname(page), target.replace(/#.*$/, ''))), `${page}: ${target}`).toBe(true);
      }
    }
  });
});
