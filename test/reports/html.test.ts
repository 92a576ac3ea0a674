import { existsSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reports/html/render.js';
import type { RunResults } from '../../reports/results-schema.js';
import { capacityMinusOne, casesNamed, mutant, resultsFor } from './fixture.js';

const CHROMIUM = '/usr/bin/chromium';
/** What Jenkins serves archived HTML with by default (hudson.model.DirectoryBrowserSupport.CSP). */
const JENKINS_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'self';";

const browser = (dir: string) =>
  chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

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

  it("draws a concurrent case's counterexamples as per-actor timelines, and a passing one as none", async () => {
    const cases = casesNamed('concurrent/posters-and-consumers');
    const broken = renderHtml([await resultsFor({ adapter: mutant('srq-post-unlocked'), cases })]);
    const figures = broken.match(/<figure class="timeline">[\s\S]*?<\/figure>/g) ?? [];
    expect(figures.length).toBeGreaterThan(0);
    // One lane per actor of the witness, each operation a bar titled with what it did and when.
    expect(figures[0]).toMatch(/<svg role="img"[^>]*>.*<text class="tl-lane"[^>]*>(poster|consumer) \d+/);
    expect(figures[0]).toMatch(/<rect class="tl-(post|recv)"[^>]*><title>(post|recv) wr_id \d+/);
    expect(figures[0]).toContain('post_srq_recv.concurrent.');
    expect(renderHtml([await resultsFor({ cases })])).not.toContain('<figure class="timeline">');
  });

  it('escapes what it shows', async () => {
    const html = renderHtml([withTitle(await resultsFor(), '<script>alert(1)</script>')]);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('has one status column per run', async () => {
    const html = renderHtml([await resultsFor(), await resultsFor({ adapter: capacityMinusOne() })]);
    const row = html.slice(html.indexOf('id="clause-post_srq_recv.capacity.at-least-max_wr"'));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/s-pass.*s-fail/s);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'filters by status, verb and text, and shows a clause\'s evidence, in headless Chromium (needs /usr/bin/chromium: apt-get install chromium)',
    async () => {
      const results = await resultsFor({ adapter: capacityMinusOne() });
      const dir = await mkdtemp(join(tmpdir(), 'rvt-html-'));
      const file = join(dir, 'report.html');
      await writeFile(file, renderHtml([results]));
      const context = await browser(dir);
      try {
        const page = await context.newPage();
        const requested: string[] = [];
        page.on('request', (r) => requested.push(r.url()));
        await page.goto(pathToFileURL(file).href);
        const visible = page.locator('tbody.clause:visible');
        const failing = results.clauses.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id);
        expect(await visible.count()).toBe(results.clauses.length);

        await page.selectOption('#filter-status', 'fail');
        expect(await visible.evaluateAll((rows) => rows.map((r) => r.id.replace(/^clause-/, '')))).toEqual(failing);
        expect(await page.locator('#shown').textContent()).toBe(`${failing.length} of ${results.clauses.length} clauses shown`);

        await page.selectOption('#filter-verb', 'post_recv');
        expect(await visible.evaluateAll((rows) => rows.map((r) => r.id))).toEqual(['clause-post_recv.capacity.as-reported', 'clause-post_recv.capacity.at-least-max_recv_wr']);

        await page.selectOption('#filter-status', '');
        await page.selectOption('#filter-verb', '');
        await page.fill('#filter-text', 'enomem');
        expect(await visible.count()).toBe(results.clauses.filter((c) => c.id.includes('enomem') || c.statement.toLowerCase().includes('enomem')).length);

        await page.fill('#filter-text', 'post_srq_recv.capacity.at-least-max_wr');
        const evidence = page.locator('#clause-post_srq_recv\\.capacity\\.at-least-max_wr tr.details details > .evidence');
        expect(await evidence.isVisible()).toBe(false);
        await page.locator('#clause-post_srq_recv\\.capacity\\.at-least-max_wr tr.details summary').click();
        expect(await evidence.isVisible()).toBe(true);
        expect(await evidence.textContent()).toContain('posting 16 WRs (the granted capacity)');

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

  it('puts the rows to act on first: failures, then binding clauses nobody saw hold', async () => {
    const results = await resultsFor({ adapter: capacityMinusOne(), expectations: [] });
    const html = renderHtml([results]);
    const order = [...html.matchAll(/<tbody class="clause" id="clause-([^"]+)"/g)].map((m) => m[1]);
    const failing = results.clauses.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id);
    expect(order.slice(0, failing.length)).toEqual(failing);
    expect(order.slice(failing.length, failing.length + 3)).toEqual(results.gate.unverified);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    "reads under Jenkins' Content-Security-Policy (no script, no inline style): the verdict, every row, and each clause's evidence behind a <details> (needs /usr/bin/chromium)",
    async () => {
      const results = await resultsFor({ adapter: capacityMinusOne() });
      const dir = await mkdtemp(join(tmpdir(), 'rvt-html-csp-'));
      const context = await browser(dir);
      try {
        const page = await context.newPage();
        const blocked: string[] = [];
        page.on('console', (m) => blocked.push(m.text()));
        // Served as Jenkins serves an archived artifact, with its CSP header.
        await page.route('http://jenkins.invalid/**', (route) =>
          route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': JENKINS_CSP }, body: renderHtml([results]) }),
        );
        await page.goto('http://jenkins.invalid/job/rdma/1/artifact/conformance-report/report.html');
        expect(blocked.some((m) => /Content Security Policy/i.test(m))).toBe(true);
        // The script did not run: the filters' count stays empty; the report is still whole.
        expect(await page.locator('#shown').textContent()).toBe('');
        expect(await page.locator('h1').textContent()).toBe('rvt-conform FAIL');
        expect(await page.locator('tbody.clause:visible').count()).toBe(results.clauses.length);
        const first = page.locator('tbody.clause').first();
        expect(await first.getAttribute('id')).toBe(`clause-${results.clauses.find((c) => c.status === 'fail')?.id}`);
        const evidence = first.locator('tr.details details > .evidence');
        expect(await evidence.isVisible()).toBe(false);
        await first.locator('tr.details summary').click();
        expect(await evidence.isVisible()).toBe(true);
        expect(await evidence.textContent()).toMatch(/expected.*actual/s);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
