import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManPage, parseManPages } from '../../../spec/kernel-doc/man.js';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';
import { Diagnostic, DocEntry } from '../../../spec/kernel-doc/schema.js';

/**
 * Whatever the input, the readers return well-formed data: no exception escapes, every
 * diagnostic and function points at a line that exists in the text.
 */

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/kernel-doc/${name}`, import.meta.url), 'utf8');

// Pieces of both syntaxes, so random text reaches deep into the state machines.
const TOKENS = [
  '/**', '*/', ' * ', ' *', '@qp:', '@...:', 'Return:', 'Returns ', 'Context:', 'DOC:', 'struct', 'Example::',
  'rvt_foo() - brief', 'static inline', '__must_hold(&qp->s_lock)', 'int', '*', '(', ')', '[', ']', '{', ';', ',',
  '#define', '#if', '//', '/*', '\t', ' ', '\n', '\r\n', '.TH "f" 9', '.SH NAME', '.SH SYNOPSIS', '.SH ARGUMENTS',
  '.B "int" f', '.BI "(int a "  ");"', '.IP "a" 12', 'f \\- b', '\\fB', '\\(', '\\[', '"', '""', '\\',
];
const tokenText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }).map((parts) => parts.join(''));
const randomText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), tokenText);

/** A real text with lines deleted, duplicated, inserted, cut or truncated. */
function mutated(text: string) {
  const lines = text.split('\n');
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), line: fc.oneof(fc.constantFrom(...TOKENS), fc.string()) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), column: fc.nat() }),
  );
  return fc.tuple(fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.option(fc.nat())).map(([mutations, truncate]) => {
    const out = [...lines];
    for (const m of mutations) {
      const at = m.at % (out.length + 1);
      if (m.kind === 'delete') out.splice(at, 1);
      else if (m.kind === 'duplicate') out.splice(at, 0, out[at] ?? '');
      else if (m.kind === 'insert') out.splice(at, 0, m.line);
      else out[at] = (out[at] ?? '').slice(0, m.column % ((out[at]?.length ?? 0) + 1));
    }
    const joined = out.join('\n');
    return truncate === null ? joined : joined.slice(0, truncate % (joined.length + 1));
  });
}

function lineCount(text: string): number {
  return text.split(/\r?\n/).length;
}

function expectWellFormed(text: string, result: { functions: DocEntry[]; types?: DocEntry[]; diagnostics: Diagnostic[] }): void {
  const lines = lineCount(text);
  for (const d of Diagnostic.array().parse(result.diagnostics)) {
    expect(d.line, `${d.code} ${d.message}`).toBeLessThanOrEqual(lines);
  }
  for (const fn of DocEntry.array().parse([...result.functions, ...(result.types ?? [])])) expect(fn.line).toBeLessThanOrEqual(lines);
}

describe('parseKernelDoc never throws', () => {
  it('on random text', () => {
    fc.assert(fc.property(randomText, (text) => expectWellFormed(text, parseKernelDoc(text, 'random.c'))), { numRuns: 500 });
  });

  it('on mutated real comment blocks', () => {
    const source = fixture('srq.c');
    fc.assert(fc.property(mutated(source), (text) => expectWellFormed(text, parseKernelDoc(text, 'srq.c'))), { numRuns: 300 });
  });

  it('on mutated struct, enum and typedef comments', () => {
    const source = fixture('types.h');
    fc.assert(fc.property(mutated(source), (text) => expectWellFormed(text, parseKernelDoc(text, 'types.h'))), { numRuns: 300 });
  });

  it('on a large pathological struct, without the quadratic comma loop of the script (which would take minutes here)', () => {
    const text = `/**\n * struct s - x\n * @f: f\n */\nstruct s {\n\tint (*f)(${'int a, '.repeat(50_000)}int b);\n${'\tstruct { int a; } x;\n'.repeat(200)}};\n`;
    const { types } = parseKernelDoc(text, 'big.h');
    expect(types.map((type) => type.members.map((member) => member.name))).toEqual([['f']]);
  });

  it('on large pathological input, in one pass', () => {
    const unbalanced = '/**\n * f - x\n */\nint f(((((((((;\n'.repeat(2000);
    const huge = `/**\n * g - y\n */\nint g(${'a(*b[, '.repeat(5000)}${'x('.repeat(20000)});\n`;
    const text = `${unbalanced}${huge}/**\n`;
    const result = parseKernelDoc(text, 'big.c');
    // Every comment is read: a function, or dropped for a declaration that cannot be read.
    const dropped = result.diagnostics.filter((d) => d.code === 'unparsable-declaration');
    expect(result.functions.length + dropped.length).toBe(2001);
    expectWellFormed(text, result);
  });
});

describe('parseManPage and parseManPages never throw', () => {
  it('on random text', () => {
    fc.assert(
      fc.property(randomText, (text) => {
        expectWellFormed(text, parseManPages(text, 'random.9'));
        const { function: fn, diagnostics } = parseManPage(text, 'random.9');
        expectWellFormed(text, { functions: fn ? [fn] : [], diagnostics });
      }),
      { numRuns: 500 },
    );
  });

  it('on mutated real pages', () => {
    const man = fixture('srq.man');
    fc.assert(fc.property(mutated(man), (text) => expectWellFormed(text, parseManPages(text, 'srq.man'))), { numRuns: 300 });
  });

  it('on mutated type pages', () => {
    const man = fixture('types.man');
    fc.assert(fc.property(mutated(man), (text) => expectWellFormed(text, parseManPages(text, 'types.man'))), { numRuns: 300 });
  });
});
