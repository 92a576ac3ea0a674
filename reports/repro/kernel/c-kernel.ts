import { cString } from '../c-syntax.js';
import type { Dialect } from '../scope.js';

/** The kernel verbs' names for what a reproducer handles (include/rdma/ib_verbs.h). */
export const KERNEL_VERBS: Dialect = {
  types: { pd: 'struct ib_pd', mr: 'struct ib_mr', cq: 'struct ib_cq', srq: 'struct ib_srq', qp: 'struct ib_qp' },
  // The _user forms return what failed; the void ones would WARN, which reads as a splat of the replay.
  teardown: {
    qp: (name) => `ib_destroy_qp(${name});`,
    srq: (name) => `ib_destroy_srq_user(${name}, NULL);`,
    cq: (name) => `ib_destroy_cq_user(${name}, NULL);`,
    mr: (name) => `ib_dereg_mr(${name});`,
    pd: (name) => `dealloc_pd(${name});`,
  },
  gidType: 'union ib_gid',
  u64: (value) => `0x${value.toString(16)}ULL`,
};

/** Kernel style wants lines of at most 100 columns (a tab is 8), except a string literal alone on its line. */
const MAX_COLUMNS = 100;
const columns = (line: string, depth: number) => depth * 8 + line.length;

/** Text that a printk format shows as it is. */
export const literalText = (text: string): string => text.replaceAll('%', '%%');

/** A pr_info of a fixed text: `pr_info("text\n");`. */
export const prInfo = (text: string, depth: number): string => prFormat(literalText(text), [], depth);

/** A pr_info of a format and its arguments, the format on a line of its own when the call would be too long. */
export function prFormat(format: string, args: readonly string[], depth: number): string {
  const literal = `${cString(format).slice(0, -1)}\\n"`;
  const tail = args.map((a) => `, ${a}`).join('');
  const oneLine = `pr_info(${literal}${tail});`;
  if (columns(oneLine, depth) <= MAX_COLUMNS) return oneLine;
  return `pr_info(\n\t${literal}${tail.length > 0 && columns(`\t${literal}${tail});`, depth) > MAX_COLUMNS ? `,\n\t${args.join(', ')}` : tail});`;
}

/** A call whose arguments go on as many lines as they need, each continuation one tab in (kernel style allows it). */
export function wrapCall(head: string, args: readonly string[], tail: string, depth: number): string {
  const oneLine = `${head}(${args.join(', ')})${tail}`;
  if (columns(oneLine, depth) <= MAX_COLUMNS) return oneLine;
  const lines: string[] = [];
  let line = `${head}(`;
  args.forEach((arg, i) => {
    const piece = `${arg}${i + 1 < args.length ? ',' : `)${tail}`}`;
    const candidate = line.endsWith('(') ? `${line}${piece}` : `${line} ${piece}`;
    if (columns(candidate, depth + 1) > MAX_COLUMNS && !line.endsWith('(')) {
      lines.push(line);
      line = `\t${piece}`;
    } else line = candidate;
  });
  lines.push(line);
  return lines.join('\n');
}
