import { describe, expect, it } from 'vitest';
import { structMembers } from '../../../spec/kernel-doc/struct-members.js';

/** Member names as scripts/kernel-doc 6.1 lists them for the same declarations (checked with its -man output). */
describe('structMembers: dump_struct ported', () => {
  it('names the members of a nested struct declared with several ids after each id, a pointer one too', () => {
    expect(structMembers('struct q { int a; struct { int x; } in, *out; int z; } ;', 'q')).toEqual({
      kind: 'ok',
      type: 'struct',
      name: 'q',
      members: ['a', 'in', 'in.x', 'out', 'out.x', 'z'],
    });
  });

  it('unwraps struct_group_tagged() and, in the same pass, leaves a struct_group() inside it to the member split', () => {
    const text = 'struct q { struct_group_tagged(q_tag, g_name, int g; struct_group(inner_grp, int inner;); ); int z; } ;';
    expect(structMembers(text, 'q')).toMatchObject({ members: ['g', 'inner', 'z'] });
  });

  it('leaves out private members up to public:, and attributes', () => {
    const text = 'struct p { int a __aligned(8); /* private: */ int hidden; /* public: */ int b; /* private: */ int rest; } __packed ;';
    expect(structMembers(text, 'p')).toMatchObject({ members: ['a', 'b'] });
  });

  it('reads `typedef struct { ... } name;`, takes its kind from the definition, and tells another name or no body apart', () => {
    expect(structMembers('typedef union { int v; } t;', 't')).toEqual({ kind: 'ok', type: 'union', name: 't', members: ['v'] });
    expect(structMembers('struct other { int v; } ;', 't')).toEqual({ kind: 'mismatch', declaredName: 'other' });
    expect(structMembers('#define T 1;', 't')).toEqual({ kind: 'unparsable' });
  });
});
