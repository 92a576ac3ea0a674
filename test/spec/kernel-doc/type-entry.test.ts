import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManPages } from '../../../spec/kernel-doc/man.js';
import { compareReadings } from '../../../spec/kernel-doc/oracle-compare.js';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/kernel-doc/${name}`, import.meta.url), 'utf8');
const FILE = 'include/rdma/types.h';

describe('parseKernelDoc on types: members as scripts/kernel-doc names them', () => {
  const { types, diagnostics } = parseKernelDoc(fixture('types.h'), FILE);
  const demo = types.find((type) => type.name === 'rvt_demo')!;

  it('reads a struct page: kind, name, brief and its documented members in declaration order', () => {
    expect(demo).toMatchObject({ kind: 'struct', brief: 'a demo of what kernel-doc names', params: [], signature: null });
    expect(demo.members.map((member) => member.name)).toEqual([
      'qp_type',
      'attr',
      // a named nested struct's members are outer.inner, an anonymous union's keep their names
      'attr.max_wr',
      'attr.max_sge',
      'anon_a',
      'bits', // DECLARE_BITMAP
      'post', // a function pointer, by its pointer
      'group_a', // inside struct_group()
      // `hidden` is private: documented, but not shown
      'inline_doc', // documented in the body
      'one_line',
      'tail', // a bit-field
      'flex', // DECLARE_FLEX_ARRAY
    ]);
    expect(demo.members.find((member) => member.name === 'inline_doc')!.description).toBe('documented inside the body');
    expect(diagnostics).toEqual([]);
  });

  it('reads an enum page (its constants, #ifdef lines aside) and a plain typedef page', () => {
    expect(types.map((type) => `${type.kind} ${type.name}`)).toEqual(['struct rvt_demo', 'enum rvt_demo_state', 'typedef rvt_demo_t']);
    expect(types[1]!.members).toEqual([
      { name: 'RVT_DEMO_A', description: 'first' },
      { name: 'RVT_DEMO_B', description: 'second' },
    ]);
  });

  it('agrees with the script on the same file', () => {
    const script = parseManPages(fixture('types.man'), FILE);
    expect(script.types.map((type) => `${type.kind} ${type.name}`)).toEqual(types.map((type) => `${type.kind} ${type.name}`));
    expect(compareReadings(FILE, types, script.types)).toEqual([]);
  });

  it('names the kind after the definition, and drops a comment on another declaration or on none', () => {
    const union = parseKernelDoc('/**\n * struct u - a union\n * @a: the a\n */\ntypedef union { int a; } u;\n', FILE);
    expect(union.types.map((type) => `${type.kind} ${type.name}`)).toEqual(['union u']);
    const other = parseKernelDoc('/**\n * struct foo - x\n */\nstruct bar { int a; };\n/**\n * enum e - y\n */\n#define E 1\n', FILE);
    expect(other.types).toEqual([]);
    expect(other.diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(['4:name-mismatch', '8:unparsable-declaration']);
  });

  it('keeps a member documented with nothing after its colon, as the page lists it', () => {
    const { types: [type] } = parseKernelDoc('/**\n * struct s - x\n * @a:\n * @b: bee\n */\nstruct s { int a; int b; int c; };\n', FILE);
    expect(type!.members).toEqual([
      { name: 'a', description: '' },
      { name: 'b', description: 'bee' },
    ]);
  });
});
