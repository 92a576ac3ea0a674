import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManPage, parseManPages } from '../../../spec/kernel-doc/man.js';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';
import { disagreements } from '../../../spec/kernel-doc/oracle-compare.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/kernel-doc/${name}`, import.meta.url), 'utf8');
const SRQ_MAN = fixture('srq.man');

describe('parseManPages on real `kernel-doc -man` output (srq.c, linux 6.1)', () => {
  it('reads one function per .TH page', () => {
    const { functions, diagnostics } = parseManPages(SRQ_MAN, 'srq.man');
    expect(diagnostics).toEqual([]);
    expect(functions.map((fn) => fn.name)).toEqual([
      'rvt_driver_srq_init',
      'rvt_create_srq',
      'rvt_modify_srq',
      'rvt_query_srq',
      'rvt_destroy_srq',
    ]);
    expect(functions[1]).toEqual({
      name: 'rvt_create_srq',
      kind: 'function',
      file: 'srq.man',
      line: 12,
      brief: 'create a shared receive queue',
      params: [
        { name: 'ibsrq', description: 'the protection domain of the SRQ to create' },
        { name: 'srq_init_attr', description: 'the attributes of the SRQ' },
        { name: 'udata', description: 'data from libibverbs when creating a user SRQ' },
      ],
      members: [],
      description: '',
      sections: [{ name: 'Return', text: '0 on success', inferred: false }],
      signature: {
        text: 'int rvt_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *srq_init_attr, struct ib_udata *udata)',
        returnType: 'int',
        params: [
          { name: 'ibsrq', type: 'struct ib_srq *' },
          { name: 'srq_init_attr', type: 'struct ib_srq_init_attr *' },
          { name: 'udata', type: 'struct ib_udata *' },
        ],
        attributes: [],
        storage: [],
      },
    });
  });

  it('agrees with parseKernelDoc on the same file (the oracle in miniature, no perl needed)', () => {
    const ours = parseKernelDoc(fixture('srq.c'), 'srq.c').functions;
    expect(disagreements('srq.c', ours, parseManPages(SRQ_MAN).functions)).toEqual([]);
  });
});

const PAGE = `.TH "rvt_post_one_wr" 9 "rvt_post_one_wr" "January 2024" "Kernel Hacker's Manual" LINUX
.SH NAME
rvt_post_one_wr \\- post one RC, UC, or UD send work request
.SH SYNOPSIS
.B "static int" rvt_post_one_wr
.BI "(struct rvt_qp *qp "  ","
.BI "void (*cb)(struct rvt_qp *qp, u64 v) "  ","
.BI "int flags "  ");"
.SH ARGUMENTS
.IP "qp" 12
the \\fIqp\\fP to post on, see \\fBrvt_post_send\\fP
.IP "cb" 12
-- undescribed --
.IP "flags" 12
a ""quoted"" word and \\(bu a bullet
.SH "DESCRIPTION"
First line
\\&.dotted line kept as text
.PP
Second paragraph \\e and \\[unknown] \\[constructor] escapes
.SH "NOTES"
Fonts \\fBbold\\fR and \\f[I]italic\\fP go.
.SH "SEE ALSO"
rvt_post_send(9)
`;

describe('parseManPage', () => {
  it('removes troff fonts and escapes, and the script\u2019s filler for undocumented parameters', () => {
    const { function: fn, diagnostics } = parseManPage(PAGE, 'page.9');
    expect(diagnostics).toEqual([]);
    expect(fn).toMatchObject({
      name: 'rvt_post_one_wr',
      brief: 'post one RC, UC, or UD send work request',
      params: [
        { name: 'qp', description: 'the qp to post on, see rvt_post_send' },
        { name: 'flags', description: 'a ""quoted"" word and • a bullet' },
      ],
      description: 'First line\n.dotted line kept as text\n\nSecond paragraph \\ and \\[unknown] \\[constructor] escapes',
      // SEE ALSO is generated cross-referencing, not documentation.
      sections: [{ name: 'Note', text: 'Fonts bold and italic go.', inferred: false }],
    });
    expect(fn?.signature).toMatchObject({
      returnType: 'int',
      storage: ['static'],
      params: [
        { name: 'qp', type: 'struct rvt_qp *' },
        { name: 'cb', type: 'void (*)(struct rvt_qp *qp, u64 v)' },
        { name: 'flags', type: 'int' },
      ],
    });
  });

  it('drops the `void` and `...` fillers and reads a macro page without a return type', () => {
    const page = `.TH "RVT_MAX" 9
.SH NAME
RVT_MAX \\- larger of two
.SH SYNOPSIS
.B "RVT_MAX
.BI "(a "  ","
.BI "... "  ");"
.SH ARGUMENTS
.IP "a" 12
one
.IP "..." 12
variable arguments
.TH "rvt_none" 9
.SH NAME
rvt_none \\- takes nothing
.SH SYNOPSIS
.B "void" rvt_none
.BI "(void "  ");"
.SH ARGUMENTS
.IP "void" 12
no arguments
`;
    const { functions } = parseManPages(page);
    expect(functions.map((fn) => [fn.name, fn.params, fn.signature?.text, fn.signature?.params])).toEqual([
      ['RVT_MAX', [{ name: 'a', description: 'one' }], '#define RVT_MAX(a, ...)', [{ name: 'a', type: '' }, { name: '...', type: '' }]],
      ['rvt_none', [], 'void rvt_none(void)', []],
    ]);
  });

  it('skips struct, enum and DOC: pages, and reads the newer (Python kernel-doc) layout', () => {
    const stream = `.TH "rdmavt" 9 "struct rvt_qp" "January 2024" "API Manual" LINUX
.SH NAME
struct rvt_qp \\- a queue pair
.TH "rdmavt" 9 "rdmavt" "January 2024" "API Manual" LINUX
.SH "Overview"
A DOC: block.
.TH "rvt_comm_est" 9 "January 2024" "drivers/infiniband/sw/rdmavt" "Kernel API Manual"
.SH NAME
rvt_comm_est \\- handle trap with QP established
.SH SYNOPSIS
.B "void" rvt_comm_est
.BI "(struct rvt_qp *qp"  ");"
.SH ARGUMENTS
.IP "qp" 12
the QP
.SH "SEE ALSO"
.PP
Kernel file \\fBdrivers/infiniband/sw/rdmavt/qp.c\\fR
`;
    const { functions, diagnostics } = parseManPages(stream, 'qp.9');
    expect(diagnostics).toEqual([]);
    expect(functions.map((fn) => [fn.name, fn.line, fn.signature?.text, fn.sections])).toEqual([
      ['rvt_comm_est', 7, 'void rvt_comm_est(struct rvt_qp *qp)', []],
    ]);
  });

  it('reports text that is not a man page, stray text and extra pages', () => {
    expect(parseManPage('just some text\n', 'x.9')).toEqual({
      function: null,
      diagnostics: [
        expect.objectContaining({ line: 1, code: 'man-stray-text' }),
        expect.objectContaining({ line: 1, code: 'man-no-page' }),
      ],
    });
    const two = `${PAGE}${PAGE}`;
    const { function: fn, diagnostics } = parseManPage(two, 'x.9');
    expect(fn?.name).toBe('rvt_post_one_wr');
    expect(diagnostics.map((d) => d.code)).toEqual(['man-extra-pages']);
    expect(parseManPages('').diagnostics).toEqual([]);
  });

  it('reports a function page without SYNOPSIS', () => {
    const { function: fn, diagnostics } = parseManPage('.TH x\n.SH NAME\nfoo \\- bar\n', 'x.9');
    expect(fn).toMatchObject({ name: 'foo', brief: 'bar', signature: null });
    expect(diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(['1:man-no-synopsis']);
  });
});

describe('parseManPages on a type page (types.man, the script on types.h)', () => {
  const { functions, types, diagnostics } = parseManPages(fixture('types.man'), 'types.man');

  it('reads struct, enum and typedef pages as types, with Members and Constants, no SYNOPSIS needed', () => {
    expect(functions).toEqual([]);
    expect(diagnostics).toEqual([]);
    expect(types.map((type) => [type.kind, type.name, type.members.length])).toEqual([
      ['struct', 'rvt_demo', 12],
      ['enum', 'rvt_demo_state', 2],
      ['typedef', 'rvt_demo_t', 0],
    ]);
  });

  it("drops the script's fillers: an anonymous union's {unnamed_union} and an undocumented constant", () => {
    expect(types[0]!.members.map((member) => member.name)).not.toContain('{unnamed_union}');
    expect(types[1]!.members.map((member) => member.name)).toEqual(['RVT_DEMO_A', 'RVT_DEMO_B']);
  });
});
