import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManPages } from '../../../spec/kernel-doc/man.js';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';
import { disagreements } from '../../../spec/kernel-doc/oracle-compare.js';

/** The oracle is only as good as its comparison: each kind of difference must be caught. */

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/kernel-doc/${name}`, import.meta.url), 'utf8');
const OURS = parseKernelDoc(fixture('srq.c'), 'srq.c').functions;
const MAN = fixture('srq.man');

function problemsWith(man: string): string[] {
  return disagreements('srq.c', OURS, parseManPages(man).functions).map((problem) => problem.split('\n')[0]!);
}

describe('the oracle comparison', () => {
  it('agrees when nothing differs', () => {
    expect(problemsWith(MAN)).toEqual([]);
  });

  it.each([
    ['a Return text', 'always 0', 'always 1', 'srq.c: rvt_query_srq: sections'],
    ['a parameter description', 'srq to query', 'srq to read', 'srq.c: rvt_query_srq: params'],
    ['a brief', 'query srq data', 'query SRQ data', 'srq.c: rvt_query_srq: brief'],
    ['a parameter type', '.BI "struct ib_srq_attr *attr "  ");"', '.BI "struct ib_srq_attr attr "  ");"', 'srq.c: rvt_query_srq: signature'],
    ['a description', 'Do any initialization', 'Do no initialization', 'srq.c: rvt_driver_srq_init: description'],
    ['a function name', '.TH "rvt_query_srq"', '.TH "x"\n.SH NAME\nx \\- y\n.TH "rvt_query_srq"', 'srq.c: x: only the script documents it'],
  ])('notices %s', (_what, from, to, expected) => {
    expect(MAN.includes(from)).toBe(true);
    expect(problemsWith(MAN.replace(from, to))).toEqual([expected]);
  });

  it('notices a function the script does not document', () => {
    const withoutLastPage = MAN.slice(0, MAN.indexOf('.TH "rvt_destroy_srq"'));
    expect(problemsWith(withoutLastPage)).toEqual(['srq.c: rvt_destroy_srq: only parseKernelDoc documents it']);
  });

  it('finds an inferred Return section in the script\u2019s description, and notices when it is not there', () => {
    const source = '/**\n * foo - bar\n *\n * Does foo.\n * Return -1 on error.\n */\nint foo(void);\n';
    const ours = parseKernelDoc(source, 'foo.c').functions;
    const page = (description: string) =>
      `.TH "foo" 9\n.SH NAME\nfoo \\- bar\n.SH SYNOPSIS\n.B "int" foo\n.BI "(void "  ");"\n.SH "DESCRIPTION"\n${description}\n`;
    expect(disagreements('foo.c', ours, parseManPages(page('Does foo.\nReturn -1 on error.')).functions)).toEqual([]);
    expect(disagreements('foo.c', ours, parseManPages(page('Does foo.')).functions)).toHaveLength(1);
  });

  it("reads the script's filler for a macro's named variadic parameter the same as no documentation", () => {
    const page = '.TH "pr" 9\n.SH NAME\npr \\- print\n.SH SYNOPSIS\n.B "pr"\n.BI "(fmt "  ","\n.BI "args... "  ")"\n.SH ARGUMENTS\n.IP "fmt" 12\nthe format\n.IP "args" 12\nvariable arguments\n.SH "DESCRIPTION"\nPrints.\n';
    const script = parseManPages(page).functions;
    const undocumented = parseKernelDoc('/**\n * pr - print\n * @fmt: the format\n *\n * Prints.\n */\n#define pr(fmt, args...) printk(fmt, ##args)\n', 'pr.h').functions;
    const documented = parseKernelDoc('/**\n * pr - print\n * @fmt: the format\n * @args: variable arguments\n *\n * Prints.\n */\n#define pr(fmt, args...) printk(fmt, ##args)\n', 'pr.h').functions;
    expect(disagreements('pr.h', undocumented, script)).toEqual([]);
    expect(disagreements('pr.h', documented, script)).toEqual([]);
  });
});
