import { describe, expect, it } from 'vitest';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';
import { findSection, type DocEntry } from '../../../spec/kernel-doc/schema.js';

const FILE = 'drivers/infiniband/sw/rdmavt/example.c';

/** The only function documented in `source`, failing loudly otherwise. */
function only(source: string): DocEntry {
  const { functions } = parseKernelDoc(source, FILE);
  expect(functions.map((fn) => fn.name)).toHaveLength(1);
  return functions[0]!;
}

function codes(source: string): string[] {
  return parseKernelDoc(source, FILE).diagnostics.map((d) => `${d.line}:${d.code}`);
}

const POST_SRQ_RECV = `
/**
 * rvt_post_srq_recv - post a receive on a shared receive queue
 * @ibsrq: the SRQ to post the receive on
 * @wr: the list of work requests to post
 * @bad_wr: A pointer to the first WR to cause a problem is put here
 *
 * This may be called from interrupt context.
 *
 * Return: 0 on success else errno
 */
int rvt_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	return 0;
}
`;

describe('parseKernelDoc: the documented parts', () => {
  it('reads name, brief, parameters, description and sections', () => {
    const fn = only(POST_SRQ_RECV);
    expect(fn).toMatchObject({
      name: 'rvt_post_srq_recv',
      file: FILE,
      line: 2,
      brief: 'post a receive on a shared receive queue',
      params: [
        { name: 'ibsrq', description: 'the SRQ to post the receive on' },
        { name: 'wr', description: 'the list of work requests to post' },
        { name: 'bad_wr', description: 'A pointer to the first WR to cause a problem is put here' },
      ],
      // A context statement in plain prose stays description text.
      description: 'This may be called from interrupt context.',
      sections: [{ name: 'Return', text: '0 on success else errno', inferred: false }],
    });
    expect(parseKernelDoc(POST_SRQ_RECV, FILE).diagnostics).toEqual([]);
  });

  it('continues a brief over lines until the first @arg', () => {
    const fn = only(`/**
 * alloc_qpn - Allocate the next available qpn or zero/one for QP type
 *	       IB_QPT_SMI/IB_QPT_GSI
 * @rdi: rvt device info structure
 */
static int alloc_qpn(struct rvt_dev_info *rdi);
`);
    expect(fn.brief).toBe('Allocate the next available qpn or zero/one for QP type IB_QPT_SMI/IB_QPT_GSI');
    expect(fn.params.map((param) => param.name)).toEqual(['rdi']);
  });

  it('ends a brief at a blank line, and accepts `name()` and no brief at all', () => {
    expect(only('/**\n * foo() - first\n * second\n *\n * third\n */\nvoid foo(void);\n')).toMatchObject({
      brief: 'first second',
      description: 'third',
    });
    expect(only('/**\n * foo\n * What it does.\n */\nvoid foo(void);\n')).toMatchObject({
      brief: '',
      description: 'What it does.',
    });
  });

  it('keeps continuation lines of a parameter, without their common indentation', () => {
    const fn = only(`/**
 * rvt_stop_rc_timers - stop all timers
 * @qp: the QP
 * stop any pending timers
 * @flags: first line
 *         second line
 *           indented third
 * @udata:
 *		on the next line
 *		and the one after
 */
void rvt_stop_rc_timers(struct rvt_qp *qp, int flags, void *udata);
`);
    expect(fn.params).toEqual([
      { name: 'qp', description: 'the QP\nstop any pending timers' },
      { name: 'flags', description: 'first line\nsecond line\n  indented third' },
      { name: 'udata', description: 'on the next line\nand the one after' },
    ]);
  });

  it('reads `Return -1 if ...` without a colon as an inferred Return section, raw text kept', () => {
    const source = `/**
 * rvt_get_rwqe - copy the next RWQE into the QP's RWQE
 * @qp: the QP
 *
 * Return -1 if there is a local error, 0 if no RWQE is available,
 * otherwise return 1.
 *
 * Can be called from interrupt level.
 */
int rvt_get_rwqe(struct rvt_qp *qp);
`;
    const fn = only(source);
    expect(fn.sections).toEqual([
      {
        name: 'Return',
        text: 'Return -1 if there is a local error, 0 if no RWQE is available,\notherwise return 1.',
        inferred: true,
      },
    ]);
    expect(fn.description).toBe('Can be called from interrupt level.');
    expect(codes(source)).toEqual(['5:inferred-return']);
  });

  it('infers Return mid-paragraph (line start) but not from prose that merely mentions it', () => {
    const fn = only(`/**
 * rvt_free_all_qps - check for QPs still in use
 * @rdi: rvt device info structure
 *
 * There should not be any QPs still in use.
 * Returns the number of QPs still in use.
 *
 * The return value is zero or a -ENOMEM.
 */
static unsigned rvt_free_all_qps(struct rvt_dev_info *rdi);
`);
    expect(fn.description).toBe('There should not be any QPs still in use.\n\nThe return value is zero or a -ENOMEM.');
    expect(findSection(fn, 'Return')).toEqual({ name: 'Returns', text: 'Returns the number of QPs still in use.', inferred: true });
  });

  it('recognises section headings case-insensitively and keeps their spelling', () => {
    const fn = only(`/**
 * foo - bar
 * NOTE: It is valid to have 1 MLID with multiple MGIDs.
 * @a: the a
 *
 * Context: Any context.
 * Returns: 0 or -EINVAL.
 * example: foo(1);
 */
int foo(int a);
`);
    expect(fn.sections.map((section) => [section.name, section.text])).toEqual([
      ['NOTE', 'It is valid to have 1 MLID with multiple MGIDs.'],
      ['Context', 'Any context.'],
      ['Returns', '0 or -EINVAL.'],
      ['example', 'foo(1);'],
    ]);
    expect(findSection(fn, 'return')?.text).toBe('0 or -EINVAL.');
  });

  it('ends a section at a blank line: what follows is description, as for scripts/kernel-doc', () => {
    const fn = only(`/**
 * rvt_create_qp - create a queue pair for a device
 * @ibqp: the queue pair
 *
 * Queue pair creation is mostly an rvt issue.
 *
 * Return: 0 on success, otherwise returns an errno.
 *
 * Called by the ib_create_qp() core verbs function.
 */
int rvt_create_qp(struct ib_qp *ibqp);
`);
    expect(findSection(fn, 'Return')?.text).toBe('0 on success, otherwise returns an errno.');
    expect(fn.description).toBe(
      'Queue pair creation is mostly an rvt issue.\n\nCalled by the ib_create_qp() core verbs function.',
    );
  });

  it('continues a parameter or section after a blank line with a line indented two columns or a tab (tabs expanded)', () => {
    const fn = only(`/**
 * iser_check - check protection
 * @task: the task
 *
 *   whose protection is checked
 * @sector: where
 *
 * Return: 0 on success,
 *
 *\tor a negative errno.
 *
 * Context: any.
 *
 *   Indented, but a blank line ends Context.
 */
int iser_check(int sector, void *task);
`);
    // Declaration order, as the script lists them.
    expect(fn.params).toEqual([
      { name: 'sector', description: 'where' },
      { name: 'task', description: 'the task\n\nwhose protection is checked' },
    ]);
    expect(findSection(fn, 'Return')?.text).toBe('0 on success,\n\nor a negative errno.');
    expect(fn.description).toBe('  Indented, but a blank line ends Context.');
  });

  it('reads a "Returns ..." sentence as a section only when no explicit Return: follows', () => {
    const fn = only('/**\n * foo - bar\n *\n * Returns the thing.\n *\n * Return: 0.\n */\nint foo(void);\n');
    expect(fn.sections).toEqual([{ name: 'Return', text: '0.', inferred: false }]);
    expect(fn.description).toBe('Returns the thing.');
  });

  it('finds a heading after a later `*` on the line, and keeps `Note:` and `NOTE:` apart, as the script does', () => {
    const fn = only('/**\n * foo - bar\n *\n * * Returns:\n * 0: on success\n *\n * Note: one.\n *\n * NOTE: two.\n */\nint foo(void);\n');
    expect(fn.sections.map((section) => [section.name, section.text])).toEqual([
      ['Returns', '0: on success'],
      ['Note', 'one.'],
      ['NOTE', 'two.'],
    ]);
  });

  it('leaves out a parameter documented but not declared, as the script does', () => {
    const fn = only('/**\n * foo - bar\n * @b: the b\n * @gone: removed long ago\n * @a: the a\n */\nint foo(int a, int b);\n');
    expect(fn.params.map((param) => param.name)).toEqual(['a', 'b']);
  });

  it('does not take `Example::` (a literal block) or a word mid-line as a heading', () => {
    const fn = only('/**\n * foo - bar\n *\n * Example::\n *   foo(); note: none\n */\nvoid foo(void);\n');
    expect(fn.sections).toEqual([]);
    expect(fn.description).toBe('Example::\n  foo(); note: none');
  });

  it('reads `Description:` as the description and `@return:` as the Return section', () => {
    const fn = only('/**\n * foo - bar\n * @a: the a\n * Description: does foo\n * @return: zero\n */\nint foo(int a);\n');
    expect(fn.description).toBe('does foo');
    expect(fn.params.map((param) => param.name)).toEqual(['a']);
    expect(findSection(fn, 'Return')?.text).toBe('zero');
  });

  it('reads `@...:` for variadic functions', () => {
    const fn = only(`/**
 * rvt_pr_info - print driver information
 * @rdi: the device
 * @fmt: printf format
 * @...: arguments for @fmt
 */
__printf(2, 3) void rvt_pr_info(struct rvt_dev_info *rdi, const char *fmt, ...);
`);
    expect(fn.params.at(-1)).toEqual({ name: '...', description: 'arguments for @fmt' });
    expect(fn.signature?.params.at(-1)).toEqual({ name: '...', type: '' });
    expect(fn.signature?.attributes).toEqual(['__printf(2, 3)']);
  });

  it('keeps the last of a parameter documented twice and joins a section documented twice, as the script does', () => {
    const source = '/**\n * foo - bar\n * @a: one\n * @a: two\n * Return: x\n * Returns: y\n */\nint foo(int a);\n';
    const fn = only(source);
    expect(fn.params).toEqual([{ name: 'a', description: 'two' }]);
    expect(fn.sections).toEqual([{ name: 'Return', text: 'x\ny', inferred: false }]);
    expect(codes(source)).toEqual(['4:duplicate-param', '6:duplicate-section']);
  });
});

describe('parseKernelDoc: the declaration after the comment', () => {
  it('reads static inline, a pointer return type and a multi-line parameter list', () => {
    const fn = only(`/**
 * get_rvt_head - get head indices of the circular buffer
 * @rq: data structure for request queue entry
 * @ip: the QP
 */
static inline struct rvt_rq_head *
get_rvt_head(struct rvt_rq *rq,
	     void *ip)
{
`);
    expect(fn.signature).toEqual({
      text: 'static inline struct rvt_rq_head * get_rvt_head(struct rvt_rq *rq, void *ip)',
      returnType: 'struct rvt_rq_head *',
      params: [
        { name: 'rq', type: 'struct rvt_rq *' },
        { name: 'ip', type: 'void *' },
      ],
      attributes: [],
      storage: ['static', 'inline'],
    });
  });

  it('keeps lock annotations such as __must_hold as attributes', () => {
    const fn = only(`/**
 * _rvt_reset_qp - initialize the QP state to the reset state
 * @qp: the QP to reset
 */
static void _rvt_reset_qp(struct rvt_qp *qp)
	__must_hold(&qp->s_lock)
	__releases(&qp->r_lock) __acquires(&qp->r_lock)
{
`);
    expect(fn.signature?.attributes).toEqual([
      '__must_hold(&qp->s_lock)',
      '__releases(&qp->r_lock)',
      '__acquires(&qp->r_lock)',
    ]);
    expect(fn.signature?.storage).toEqual(['static']);
    expect(fn.signature?.text).toBe(
      'static void _rvt_reset_qp(struct rvt_qp *qp) __must_hold(&qp->s_lock) __releases(&qp->r_lock) __acquires(&qp->r_lock)',
    );
  });

  it('reads function pointers, arrays, const pointers, unnamed and void parameters', () => {
    const fn = only(`/**
 * rvt_qp_iter_init - initial for QP iteration
 * @cb: user-defined callback
 */
struct rvt_qp_iter *rvt_qp_iter_init(void (*cb)(struct rvt_qp *qp, u64 v),
				     u8 gid[16], const struct ib_recv_wr **bad_wr, int);
`);
    expect(fn.signature?.params).toEqual([
      { name: 'cb', type: 'void (*)(struct rvt_qp *qp, u64 v)' },
      { name: 'gid', type: 'u8[16]' },
      { name: 'bad_wr', type: 'const struct ib_recv_wr **' },
      { name: '', type: 'int' },
    ]);
    expect(only('/**\n * foo - bar\n */\nvoid foo(void)\n{\n').signature?.params).toEqual([]);
  });

  it('skips comments, blank and preprocessor lines before the declaration; reads macros', () => {
    const fn = only(`/**
 * rvt_foo - bar
 * @a: the a
 */

#ifdef CONFIG_FOO
/* a plain comment { with a brace */
int rvt_foo(int a) // trailing
{
`);
    expect(fn.signature?.text).toBe('int rvt_foo(int a)');
    const macro = only('/**\n * RVT_MAX - larger of two\n * @a: one\n * @b: two\n */\n#define RVT_MAX(a, b) ((a) > (b) ? (a) : (b))\n');
    expect(macro.signature).toMatchObject({ returnType: '', params: [{ name: 'a', type: '' }, { name: 'b', type: '' }] });
  });

  it('reads the declarations the script rewrites: ops members, tracepoints, SYSCALL_DEFINEn, a #define continued with backslashes', () => {
    const handler = only('/**\n * typedef handler_t - an exit handler\n * @rdi: the rdi\n */\ntypedef int (*handler_t)(long rdi);\n');
    expect([handler.name, handler.signature?.returnType, handler.signature?.params]).toEqual(['handler_t', 'int', [{ name: 'rdi', type: 'long' }]]);
    const member = only('/**\n * get_link(): read the link\n * @cdev: the device\n */\n\tint (*get_link)(struct qed_dev *cdev);\n');
    expect(member.signature?.params).toEqual([{ name: 'cdev', type: 'struct qed_dev *' }]);
    const trace = only('/**\n * user_enter - called when entering user\n * @dummy: unused\n */\nTRACE_EVENT(user_enter,\n\n\tTP_PROTO(int\n\t\tdummy),\n\tTP_ARGS(dummy), TP_STRUCT__entry(__field(int, x)), TP_fast_assign(__entry->x = 1;), TP_printk(""));\n');
    expect([trace.name, trace.signature?.text]).toEqual(['trace_user_enter', 'static inline void trace_user_enter(int dummy)']);
    const event = only('/**\n * sched_x - y\n * @p: the task\n */\nDEFINE_EVENT(sched_class, sched_x, TP_PROTO(struct task_struct *p), TP_ARGS(p));\n');
    expect(event.name).toBe('trace_sched_x');
    const syscall = only('/**\n * sys_kill - send a signal\n * @pid: the pid\n * @sig: signal to be sent\n */\nSYSCALL_DEFINE2(kill, pid_t, pid, int, sig)\n{\n');
    expect(syscall.signature?.params).toEqual([{ name: 'pid', type: 'pid_t' }, { name: 'sig', type: 'int' }]);
    const macros = parseKernelDoc('/**\n * M - m\n * @a: one\n * @b: two\n */\n#define M(a, \\\n\t  b) \\\n\tdo { } while (0)\n/**\n * N - n\n */\nint N(void);\n', FILE).functions;
    expect(macros[0]!.signature?.params.map((param) => param.name)).toEqual(['a', 'b']);
    expect(macros[1]!.line).toBe(9); // physical lines still count
  });

  it('warns about undocumented and excess parameters', () => {
    const source = '/**\n * foo - bar\n * @a: the a\n * @z: not there\n */\nint foo(int a, int b);\n';
    expect(codes(source)).toEqual(['6:param-undescribed', '1:param-excess']);
  });

  it('drops a comment whose declaration is for another name, or behind the next comment, as the script does', () => {
    const mismatch = '/**\n * foo - bar\n */\nint bar(void);\n';
    expect(parseKernelDoc(mismatch, FILE).functions).toEqual([]);
    expect(codes(mismatch)).toEqual(['4:name-mismatch']);
    // The script reads the next comment as an inline one inside foo's declaration, and baz's as foo's.
    const missing = '/**\n * foo - bar\n */\n/**\n * baz - qux\n */\nint baz(void);\n';
    const { functions, diagnostics } = parseKernelDoc(missing, FILE);
    expect(functions).toEqual([]);
    expect(diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(['7:name-mismatch']);
  });
});

describe('parseKernelDoc: what is not ours, and garbage', () => {
  it('reads struct, enum and (non-function) typedef comments as types, and skips DOC: without a diagnostic', () => {
    const source = `/**
 * DOC: overview
 *
 * rvt_foo() - this line is not a function comment
 */

/**
 * struct rvt_qp - a queue pair
 * @ibqp: the ib_qp
 */
struct rvt_qp {
	struct ib_qp ibqp;
};

/**
 * enum rvt_state - states
 * @RVT_A: a
 */
enum rvt_state { RVT_A };

/**
 * typedef rvt_key - a key (a typedef of a function pointer documents a function: see below)
 */
typedef u32 rvt_key;
${POST_SRQ_RECV}`;
    const { functions, types, diagnostics } = parseKernelDoc(source, FILE);
    expect(functions.map((fn) => fn.name)).toEqual(['rvt_post_srq_recv']);
    expect(types.map((type) => [type.kind, type.name, type.members.map((member) => member.name)])).toEqual([
      ['struct', 'rvt_qp', ['ibqp']],
      ['enum', 'rvt_state', ['RVT_A']],
      ['typedef', 'rvt_key', []],
    ]);
    expect(diagnostics).toEqual([]);
  });

  it('ignores /** not alone on its line, and /*** banners', () => {
    const source = '/** one-liner */\n/***********\n * foo - bar\n */\n  /**\n   * @inline: member doc\n   */\n';
    expect(parseKernelDoc(source, FILE)).toEqual({ functions: [], types: [], diagnostics: [] });
  });

  it('reports a /** comment that is not kernel-doc and goes on', () => {
    const source = `/**\n * Copyright (c) 2016 Intel Corporation.\n */\n${POST_SRQ_RECV}`;
    const { functions, diagnostics } = parseKernelDoc(source, FILE);
    expect(functions.map((fn) => fn.name)).toEqual(['rvt_post_srq_recv']);
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.code}`)).toEqual([`${FILE}:2:not-kernel-doc`]);
  });

  it('reports an unterminated comment at its opening line, keeping what came before', () => {
    const source = `${POST_SRQ_RECV}\n/**\n * foo - bar\n * @a: never closed\nint foo(int a);\n`;
    const { functions, diagnostics } = parseKernelDoc(source, FILE);
    expect(functions.map((fn) => fn.name)).toEqual(['rvt_post_srq_recv']);
    expect(diagnostics).toEqual([
      expect.objectContaining({ line: 18, severity: 'error', code: 'unterminated-comment' }),
    ]);
  });

  it('turns garbage into diagnostics with lines, never an exception', () => {
    const source = '/**\n\u0000\u0000 @@@\n *\n */\n/**\n * f - (((\n */\nint f(((;\n/**\n * g - x\n */\nint g) (;\n';
    const { functions, diagnostics } = parseKernelDoc(source, FILE);
    expect(functions).toEqual([]);
    expect(diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual([
      '2:bad-line',
      '3:not-kernel-doc',
      '8:unparsable-declaration',
      '12:unparsable-declaration',
    ]);
  });

  it('reads a comment line without its leading * from its first *, as the script does', () => {
    // vmwgfx_drv.h: a continuation line indented without ` * ` that has a ` * ` later on.
    const fn = only('/**\n * foo - bar\n * @a: faces\n                times * array_size.\n */\nint foo(int a);\n');
    expect(fn.params).toEqual([{ name: 'a', description: 'faces\narray_size.' }]);
  });

  it('keeps text written before */ on the closing line, with a warning', () => {
    const source = '/**\n * foo - bar\n * @a: the a */\nint foo(int a);\n';
    expect(only(source).params).toEqual([{ name: 'a', description: 'the a' }]);
    expect(codes(source)).toEqual(['3:suspicious-end-line']);
  });

  it('reads CRLF files like LF files', () => {
    expect(parseKernelDoc(POST_SRQ_RECV.replace(/\n/g, '\r\n'), FILE)).toEqual(parseKernelDoc(POST_SRQ_RECV, FILE));
  });
});
