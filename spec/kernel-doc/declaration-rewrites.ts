/**
 * Declarations that scripts/kernel-doc rewrites into C prototypes before reading them
 * (process_proto_function, tracepoint_munge, syscall_munge): what a comment above a function
 * pointer member, TRACE_EVENT or SYSCALL_DEFINEn documents.
 */

export interface Rewritten {
  /** The prototype the script reads instead of the macro call. */
  text: string;
  /** The name the comment then documents (`trace_` + the event for a tracepoint). */
  name: string;
}

/** TRACE_EVENT(name, TP_PROTO(args), ...) -> `static inline void trace_name(args)`. */
function tracepoint(declaration: string, documentedName: string): Rewritten | null {
  const text = declaration.replace(/[\r\n]+/g, ' '); // the script reads the prototype as one line
  const event =
    /TRACE_EVENT\((.*?),/.exec(text)?.[1] ??
    /DEFINE_SINGLE_EVENT\((.*?),/.exec(text)?.[1] ??
    /DEFINE_EVENT\((?:.*?),(.*?),/.exec(text)?.[1];
  const args = /TP_PROTO\((.*?)\)/.exec(text)?.[1];
  if (event === undefined || args === undefined) return null;
  return { text: `static inline void trace_${event.trim()}(${args})`, name: `trace_${documentedName}` };
}

/** SYSCALL_DEFINE2(name, int, a, char *, b) -> `long sys_name(int a, char * b)`. */
function syscall(text: string, documentedName: string): Rewritten {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const none = /SYSCALL_DEFINE0/.test(flat);
  let prototype = flat.replace(/SYSCALL_DEFINE.*\(/, 'long sys_');
  if (/long (sys_.*?),/.test(prototype)) prototype = prototype.replace(',', '(');
  else if (none) prototype = prototype.replace(')', '(void)');
  // Every other comma separated a type from its name.
  let count = 0;
  if (!none) prototype = prototype.replace(/,/g, () => (++count % 2 === 1 ? ' ' : ','));
  return { text: prototype, name: documentedName };
}

// dump_typedef's $typedef1 and $typedef2: `typedef int (*name)(args);` and `typedef int name(args);`.
const TYPEDEF_TYPE = String.raw`((?:\s+[\w*]+\b){1,8})\s*`;
const TYPEDEF_IDENT = String.raw`\*?\s*(\w\S+)\s*`;
const TYPEDEF_ARGS = String.raw`\s*\((.*)\);`;
const FUNCTION_TYPEDEFS = [
  new RegExp(String.raw`typedef${TYPEDEF_TYPE}\(${TYPEDEF_IDENT}\)${TYPEDEF_ARGS}`, 's'),
  new RegExp(String.raw`typedef${TYPEDEF_TYPE}${TYPEDEF_IDENT}${TYPEDEF_ARGS}`, 's'),
];

/**
 * A typedef of a function (pointer) as the prototype the script documents it by; null for any
 * other typedef, which is a type, not a function.
 */
export function functionTypedef(text: string): string | null {
  const flat = withoutBlockComments(text).replace(/;$/, '');
  const match = FUNCTION_TYPEDEFS.map((pattern) => pattern.exec(`${flat};`)).find((found) => found !== null);
  return match ? `${match[1]!.trim()} ${match[2]}(${match[3]})` : null;
}

/**
 * The name another typedef declares (dump_typedef after its function patterns): the last word
 * before the `;`, once trailing `(...)` and `[...]` groups are cut as the script cuts them (one
 * character and the bracket at a time: `u8 id[16]` is left unreadable, as the script leaves it).
 */
export function typedefName(text: string): string | null {
  let flat = withoutBlockComments(text);
  while (/\(*.\)\s*;$/.test(flat) || /\[*.\]\s*;$/.test(flat)) flat = flat.replace(/\(*.\)\s*;$/, ';').replace(/\[*.\]\s*;$/, ';');
  return /typedef.*\s+(\w+)\s*;/.exec(flat)?.[1] ?? null;
}

function withoutBlockComments(text: string): string {
  return text.replace(/\/\*.*?\*\//gs, '');
}

/** The declaration as the script reads it, or null when the script reads it as written. */
export function rewriteDeclaration(text: string, documentedName: string): Rewritten | null {
  if (/TRACE_EVENT|DEFINE_EVENT|DEFINE_SINGLE_EVENT/.test(text)) return tracepoint(text, documentedName);
  if (/SYSCALL_DEFINE/.test(text)) return syscall(text, documentedName);
  // A member `int (*get_link)(struct qed_dev *cdev)` of an ops struct documents get_link().
  const pointer = /^(\S+\s+)\(\s*\*(\S+)\)/;
  const flat = text.trimStart();
  if (pointer.test(flat)) return { text: flat.replace(pointer, '$1$2'), name: documentedName };
  return null;
}
