import { existsSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/html/render.js';
import type { RunResults } from '../../reports/results-schema.js';
import { capacityPlusOne, resultsFor } from './fixture.js';

const CHROMIUM = '/usr/bin/chromium';

/** The same run with one case's title rewritten: every text in the report comes from results.json. */
function withTitle(results: RunResults, title: string): RunResults {
  return { ...results, cases: results.cases.map((c, i) => (i === 0 ? { ...c, title } : c)) };
}

describe('report.html', () => {
  it('is one self-contained file: nothing is loaded from anywhere', async () => {
    const html = renderHtml([await resultsFor()]);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img|<iframe|@import|url\(/i);
    expect(html).toContain('<style>');
    expect(html).toContain('<script>');
  });

  it('escapes what it shows', async () => {
    const html = renderHtml([withTitle(await resultsFor(), '<script>alert(1)</script>')]);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('has one status column per run', async () => {
    const html = renderHtml([await resultsFor(), await resultsFor({ adapter: capacityPlusOne() })]);
    const row = html.slice(html.indexOf('id="clause-post_srq_recv.full.rejected"'));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/s-pass.*s-fail/s);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'filters by status, verb and text, and shows a clause\'s evidence, in headless Chromium (needs /usr/bin/chromium: apt-get install chromium)',
    async () => {
      const results = await resultsFor({ adapter: capacityPlusOne() });
      const dir = await mkdtemp(join(tmpdir(), 'rvt-html-'));
      const file = join(dir, 'report.html');
      await writeFile(file, renderHtml([results]));
      const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      try {
        const page = await context.newPage();
        const requested: string[] = [];
        page.on('request', (r) => requested.push(r.url()));
        await page.goto(pathToFileURL(file).href);
        const visible = page.locator('tbody.clause:visible');
        const failing = results.clauses.filter((c) => c.status === 'fail').map((c) => c.id);
        expect(await visible.count()).toBe(results.clauses.length);

        await page.selectOption('#filter-status', 'fail');
        expect(await visible.evaluateAll((rows) => rows.map((r) => r.id.replace(/^clause-/, '')))).toEqual(failing);
        expect(await page.locator('#shown').textContent()).toBe(`${failing.length} of ${results.clauses.length} clauses shown`);

        await page.selectOption('#filter-verb', 'post_recv');
        expect(await visible.evaluateAll((rows) => rows.map((r) => r.id))).toEqual(['clause-post_recv.full.rejected', 'clause-post_recv.full.enomem']);

        await page.selectOption('#filter-status', '');
        await page.selectOption('#filter-verb', '');
        await page.fill('#filter-text', 'enomem');
        expect(await visible.count()).toBe(results.clauses.filter((c) => c.id.includes('enomem') || c.statement.toLowerCase().includes('enomem')).length);

        await page.fill('#filter-text', 'post_srq_recv.full.rejected');
        const details = page.locator('#clause-post_srq_recv\\.full\\.rejected tr.details');
        expect(await details.isVisible()).toBe(false);
        await page.locator('#clause-post_srq_recv\\.full\\.rejected button.toggle').click();
        expect(await details.isVisible()).toBe(true);
        expect(await details.textContent()).toContain('one WR more: fails, bad_wr at it');

        const shot = join(dir, 'report.png');
        await page.screenshot({ path: shot, fullPage: true });
        expect((await stat(shot)).size).toBeGreaterThan(0);
        expect(requested).toEqual([pathToFileURL(file).href]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
