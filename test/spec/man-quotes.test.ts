import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clauses } from '../../spec/clauses/index.js';
import { MAN_ROOT, type ManPageText, readManPage } from '../../spec/man-page.js';
import { type ManPageSource, quoteProblem } from '../../spec/man-quotes.js';

/** libibverbs-dev installs the ibv_* pages; a machine without it skips the check. */
const PROBE = join(MAN_ROOT, 'man3/ibv_post_send.3.gz');

/** Each distinct quote once, with the clauses that cite it. */
const cited = new Map<string, { source: ManPageSource; ids: string[] }>();
for (const clause of clauses) {
  for (const source of clause.sources) {
    if (source.kind !== 'man-page') continue;
    const key = JSON.stringify([source.page, source.section, source.quote]);
    const entry = cited.get(key) ?? { source, ids: [] };
    entry.ids.push(clause.id);
    cited.set(key, entry);
  }
}

describe.skipIf(!existsSync(PROBE))(`traceability: every man-page quote occurs verbatim in the installed page (${PROBE}; install libibverbs-dev)`, () => {
  const pages = new Map<string, ManPageText>();
  const page = (name: string): ManPageText => pages.get(name) ?? pages.set(name, readManPage(name)).get(name)!;
  for (const { source, ids } of cited.values()) {
    it(`${source.page} ${source.section}: "${source.quote}" (${ids.join(', ')})`, () => {
      expect(quoteProblem(page(source.page), source)).toBeNull();
    });
  }
});

describe('quoteProblem', () => {
  const page: ManPageText = new Map([['DESCRIPTION', 'uint32_t max_wr; /* Max WRs */ Set the flag']]);
  const source = (section: string, quote: string): ManPageSource => ({ kind: 'man-page', page: 'ibv_demo(3)', section, quote });

  it('holds a quote that occurs in the section once whitespace is collapsed on both sides', () => {
    expect(quoteProblem(page, source('DESCRIPTION', 'uint32_t   max_wr;\n  /* Max WRs */'))).toBeNull();
  });

  it('names the missing section, or the text the quote is not in', () => {
    expect(quoteProblem(page, source('NOTES', 'Set the flag'))).toBe('ibv_demo(3) has no NOTES section (it has DESCRIPTION)');
    expect(quoteProblem(page, source('DESCRIPTION', 'Max WRs (7 == infinite)'))).toBe(
      'ibv_demo(3) DESCRIPTION does not contain "Max WRs (7 == infinite)"; the section reads: uint32_t max_wr; /* Max WRs */ Set the flag',
    );
  });

  it('finds man-page sources to check among the clauses', () => {
    expect(cited.size).toBeGreaterThan(0);
  });
});
