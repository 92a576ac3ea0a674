import { describe, expect, it } from 'vitest';
import { draftFromResults } from '../../reports/expectations/draft.js';
import { allCases } from '../../suites/index.js';
import { resultsFor } from './fixture.js';
import { lacking } from './lying-adapters.js';

describe('draftFromResults', () => {
  it('waives a missing optional feature by its capability, once for every clause it skipped, and drafts nothing for SRQs, which no entry can waive', async () => {
    const cases = allCases.filter((c) => c.id.startsWith('modify_srq/') || c.id.startsWith('post_srq_recv/'));
    const resize = draftFromResults(await resultsFor({ adapter: lacking('srq_resize'), cases }));
    const waivers = resize.entries.filter((e) => e.capability !== undefined);
    expect(waivers).toEqual([expect.objectContaining({ capability: 'srq_resize', status: 'skip', reason: 'TODO', link: 'TODO' })]);
    expect(waivers[0]?.evidence.every((line) => /^not supported by this device: modify_srq\.[\w.-]+ was skipped for lacking it$/.test(line))).toBe(true);
    expect(resize.notes).toEqual([]);

    const noSrq = draftFromResults(await resultsFor({ adapter: lacking('srq'), cases }));
    expect(noSrq.entries.filter((e) => e.capability !== undefined)).toEqual([]);
    expect(noSrq.notes.length).toBeGreaterThan(0);
    expect(noSrq.notes[0]).toMatch(/was skipped for lacking srq, which no entry can waive$/);
  });
});
