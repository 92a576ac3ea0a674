import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { manPageText, readManPage } from '../../spec/man-page.js';

/** As libibverbs writes its pages: font requests, inline fonts and escapes, a struct in .nf, a .TP list. */
const PAGE = String.raw`.\" -*- nroff -*-
.TH IBV_DEMO 3 2006-10-31 libibverbs "Libibverbs Programmer's Manual"
.SH "NAME"
ibv_demo \- demonstrate the reader
.SH "SYNOPSIS"
.nf
.B #include <infiniband/verbs.h>
.sp
.BI "int ibv_demo(struct ibv_qp " "*qp" );
.fi
.SH "DESCRIPTION"
.B ibv_demo()
posts to the queue pair
.I qp\fR.
It stops at the \fBfirst\fR failure \(em and
\s-1RETURNS\s0 it.   \" a comment
.PP
.nf
struct ibv_demo {
.in +8
uint32_t                max_wr;         /* Max WRs */
.in -8
};
.fi
.TP
.B IBV_DEMO_FLAG \fR Set the flag
.SH "RETURN VALUE"
.BR ibv_demo ()
returns 0 on success.
`;

describe('manPageText', () => {
  it('gives each .SH section as plain text: fonts, escapes, comments and layout requests gone, whitespace collapsed', () => {
    expect(Object.fromEntries(manPageText(PAGE))).toEqual({
      NAME: 'ibv_demo - demonstrate the reader',
      SYNOPSIS: '#include <infiniband/verbs.h> int ibv_demo(struct ibv_qp *qp);',
      DESCRIPTION: 'ibv_demo() posts to the queue pair qp. It stops at the first failure — and RETURNS it. struct ibv_demo { uint32_t max_wr; /* Max WRs */ }; IBV_DEMO_FLAG Set the flag',
      'RETURN VALUE': 'ibv_demo() returns 0 on success.',
    });
  });
});

describe('readManPage', () => {
  const root = mkdtempSync(join(tmpdir(), 'rvt-man-'));
  mkdirSync(join(root, 'man3'));
  writeFileSync(join(root, 'man3/ibv_demo.3.gz'), gzipSync(PAGE));
  writeFileSync(join(root, 'man3/ibv_alias.3'), '.so man3/ibv_demo.3\n');
  writeFileSync(join(root, 'man3/ibv_loop.3'), '.so man3/ibv_loop.3\n');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a gzipped page by the name a citation gives', () => {
    expect(readManPage('ibv_demo(3)', root)).toEqual(manPageText(PAGE));
  });

  it('follows .so to the page it names, as man(1) does for pages shared by several functions', () => {
    expect(readManPage('ibv_alias(3)', root)).toEqual(manPageText(PAGE));
  });

  it('says what is missing or wrong instead of returning an empty page', () => {
    expect(() => readManPage('ibv_nonesuch(3)', root)).toThrow('man3/ibv_nonesuch.3 is not installed');
    expect(() => readManPage('ibv_loop(3)', root)).toThrow('.so loop: man3/ibv_loop.3 -> man3/ibv_loop.3');
    expect(() => readManPage('ibv_demo', root)).toThrow('not a man page name');
  });
});
