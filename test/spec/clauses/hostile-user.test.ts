import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostileUserClauses } from '../../../spec/clauses/hostile-user.js';
import { clauses } from '../../../spec/clauses/index.js';
import { Clause } from '../../../spec/clauses/schema.js';
import { hasTarball, kernelTree, prepareKernelSource } from '../../kernel-source.js';

/** What each rdmavt code source's note quotes from its function, word for word. */
const CODE_QUOTES: Record<string, string[]> = {
  rvt_get_rwqe: ['Validate tail before using it since it is user writable.', 'if (tail >= rq->size)'],
  init_sge: ['for (i = j = 0; i < wqe->num_sge; i++)'],
  rvt_modify_srq: ['validate head and tail pointer values', 'for (i = 0; i < wqe->num_sge; i++)', 'p->sg_list[i] = wqe->sg_list[i]'],
  rvt_error_qp: ['sanity check pointers before trusting them'],
};

const collapse = (text: string) => text.replace(/\s+/g, ' ');

/** A C function's text, from its definition's line to its closing brace at column 0. */
function functionText(source: string, name: string): string {
  const start = new RegExp(`^\\w[^\\n;]*\\b${name}\\(`, 'm').exec(source);
  if (start === null) return '';
  const end = source.indexOf('\n}\n', start.index);
  return source.slice(start.index, end);
}

describe('the hostile user-space clauses', () => {
  it('are valid records, with ids of their own, binding every implementation', () => {
    expect(() => Clause.array().parse(hostileUserClauses)).not.toThrow();
    const ids = hostileUserClauses.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => clauses.some((c) => c.id === id))).toEqual([]);
    expect(hostileUserClauses.every((c) => c.level === 'documented')).toBe(true);
  });

  it("each cite the kernel's promise to unprivileged processes and rdmavt's code that reads the ring", () => {
    for (const clause of hostileUserClauses) {
      expect(clause.sources.filter((s) => s.kind === 'kernel-docs').map((s) => s.file), clause.id).toEqual(['Documentation/infiniband/user_verbs.rst', 'Documentation/infiniband/user_verbs.rst']);
      expect(clause.sources.some((s) => s.kind === 'kernel-code'), clause.id).toBe(true);
    }
  });

  it("quote only what each code source's function says", () => {
    for (const source of hostileUserClauses.flatMap((c) => c.sources)) {
      if (source.kind !== 'kernel-code') continue;
      const quotes = CODE_QUOTES[source.function];
      expect(quotes, source.function).toBeDefined();
      for (const quote of quotes ?? []) expect(source.note, source.function).toContain(quote);
    }
  });
});

describe.skipIf(!hasTarball)('the hostile clauses against linux-source-6.1 (needs /usr/src/linux-source-6.1.tar.xz)', () => {
  beforeAll(prepareKernelSource, 180_000);

  it("quote Documentation/infiniband/user_verbs.rst word for word, under the section they name", () => {
    const doc = readFileSync(join(kernelTree(), 'Documentation/infiniband/user_verbs.rst'), 'utf8');
    for (const source of hostileUserClauses.flatMap((c) => c.sources)) {
      if (source.kind !== 'kernel-docs') continue;
      const section = doc.indexOf(`\n${source.section}\n===`);
      expect(section, source.section).toBeGreaterThan(-1);
      const next = doc.indexOf('\n===', section + source.section.length + 6);
      const body = doc.slice(section, next === -1 ? undefined : next);
      expect(collapse(body), source.quote).toContain(source.quote);
    }
  });

  it("quote rdmavt's code from the function each names", () => {
    for (const source of hostileUserClauses.flatMap((c) => c.sources)) {
      if (source.kind !== 'kernel-code') continue;
      const body = functionText(readFileSync(join(kernelTree(), source.file), 'utf8'), source.function);
      expect(body.length, `${source.file} ${source.function}`).toBeGreaterThan(0);
      for (const quote of CODE_QUOTES[source.function] ?? []) expect(body, `${source.function}: ${quote}`).toContain(quote);
    }
  });
});
