import type { CParam, Signature } from './schema.js';
import { collapseWhitespace } from './text.js';

/**
 * A C function declaration (or function-like macro) split into the parts a contract cares
 * about. Not a C parser: enough for kernel prototypes, and it never throws.
 */

export type DeclarationResult =
  | { kind: 'ok'; signature: Signature }
  | { kind: 'mismatch'; declaredName: string }
  | { kind: 'unparsable'; reason: string };

const STORAGE = new Set(['static', 'extern', 'inline', '__inline', '__inline__', '__always_inline', 'noinline']);
// Bare annotation macros seen before a function name (scripts/kernel-doc strips the same ones).
const ANNOTATIONS = new Set([
  'asmlinkage', 'notrace', '__init', '__exit', '__meminit', '__init_or_module', '__must_check', '__weak',
  '__sched', '__cold', '__hot', '__deprecated', '__flatten', '__attribute_const__', '__maybe_unused',
  '__visible', '__noreturn', '__pure',
]);
// A lone word that is one of these is a type without a parameter name (`int foo(int);`).
const BASIC_TYPES = new Set(['void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '_Bool']);
const IDENTIFIER = /^[A-Za-z_]\w*$/;

/** Splits a declaration into return type, name, parameters, storage and attributes. */
export function parseDeclaration(text: string, documentedName: string): DeclarationResult {
  const flat = tidy(text);
  if (flat.startsWith('#')) return parseMacro(flat, documentedName);
  const groups = topLevelGroups(flat);
  if (!groups) return { kind: 'unparsable', reason: 'unbalanced parentheses' };
  // The documented name anchors the parameter list, so `__printf(1, 2)` and friends are never it.
  const group =
    groups.find((candidate) => candidate.name === documentedName) ??
    groups.find((candidate) => candidate.name !== '' && !candidate.name.startsWith('__'));
  if (!group) return { kind: 'unparsable', reason: 'no parameter list' };
  if (group.name !== documentedName) return { kind: 'mismatch', declaredName: group.name };

  const storage: string[] = [];
  const attributes: string[] = [];
  const typeItems: string[] = [];
  for (const item of splitItems(flat.slice(0, group.nameStart))) {
    if (STORAGE.has(item)) storage.push(item);
    else if (ANNOTATIONS.has(item) || /^\w+\(/.test(item)) attributes.push(item);
    else typeItems.push(item);
  }
  attributes.push(...splitItems(flat.slice(group.close + 1)));
  return {
    kind: 'ok',
    signature: {
      text: flat,
      returnType: joinType(typeItems),
      params: parseParamList(flat.slice(group.open + 1, group.close)),
      attributes,
      storage,
    },
  };
}

function parseMacro(flat: string, documentedName: string): DeclarationResult {
  const head = /^#\s*define\s+(\w+)(?:\(([^)]*)\))?/.exec(flat);
  if (!head) return { kind: 'unparsable', reason: 'no macro name after #define' };
  if (head[1] !== documentedName) return { kind: 'mismatch', declaredName: head[1]! };
  const params = head[2]?.trim() ? splitTopLevel(head[2]).map((param) => parseParam(param, true)) : [];
  return { kind: 'ok', signature: { text: tidy(head[0]), returnType: '', params, attributes: [], storage: [] } };
}

function parseParamList(text: string): CParam[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'void') return [];
  return splitTopLevel(trimmed).map((param) => parseParam(param));
}

/**
 * One parameter: `const struct ib_recv_wr **bad_wr`, `void (*cb)(struct rvt_qp *qp, u64 v)`,
 * `u8 gid[16]`, `...`. Macro parameters are bare names.
 */
export function parseParam(text: string, macro = false): CParam {
  const flat = tidy(text);
  if (flat === '...' || macro) return { name: flat, type: '' };
  // `(*name)` or `(*name[4])`; array bounds are capped so hostile text stays linear.
  const pointer = /\(\s*\*+\s*(?:const\s+)?([A-Za-z_]\w*)\s*(?:\[[^\]]{0,64}\]\s*)*\)/d.exec(flat);
  if (pointer) {
    const [from, to] = pointer.indices![1]!;
    return { name: pointer[1]!, type: tidy(flat.slice(0, from) + flat.slice(to)) };
  }
  const core = withoutArraySuffix(flat);
  const suffix = flat.slice(core.length).replace(/\s+/g, '');
  const items = splitItems(core);
  const last = items.at(-1) ?? '';
  const beforeLast = items.at(-2) ?? '';
  const named =
    items.length >= 2 && IDENTIFIER.test(last) && !BASIC_TYPES.has(last) && !/^(struct|union|enum)$/.test(beforeLast);
  return named
    ? { name: last, type: joinType(items.slice(0, -1)) + suffix }
    : { name: '', type: joinType(items) + suffix };
}

/** `u8 gid[16][2]` -> `u8 gid`, scanning back from the end. */
function withoutArraySuffix(text: string): string {
  let end = text.length;
  while (text[end - 1] === ']') {
    const open = text.lastIndexOf('[', end - 1);
    if (open < 0) break;
    end = open;
    while (text[end - 1] === ' ') end--;
  }
  return text.slice(0, end);
}

/** Whitespace collapsed, none inside brackets, one space after commas. */
function tidy(text: string): string {
  return collapseWhitespace(text)
    .replace(/([([]) /g, '$1')
    .replace(/ ([)\],])/g, '$1')
    .replace(/,(?=\S)/g, ', ');
}

/** `struct rvt_qp *`, `const char **`: words spaced, stars joined. */
function joinType(items: readonly string[]): string {
  let type = '';
  for (const item of items) {
    if (type === '') type = item;
    else if (item === '*') type += type.endsWith('*') ? '*' : ' *';
    else type += ` ${item}`;
  }
  return type;
}

/** Words, `*`s and `word(...)` groups (attributes) of a declaration fragment. */
function splitItems(text: string): string[] {
  const items: string[] = [];
  const wordAt = /\w+/y;
  let balanced = true; // once a `(` finds no `)`, none after it will: stop looking (keeps this linear)
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    wordAt.lastIndex = i;
    const word = wordAt.exec(text)?.[0];
    if (!word) {
      if (char.trim() !== '') items.push(char);
      i++;
      continue;
    }
    let end = i + word.length;
    if (text[end] === ' ') end++;
    const close = balanced && text[end] === '(' ? matchingParen(text, end) : -1;
    if (text[end] === '(' && close < 0) balanced = false;
    if (close >= 0) {
      items.push(tidy(`${word}${text.slice(end, close + 1)}`));
      i = close + 1;
    } else {
      items.push(word);
      i += word.length;
    }
  }
  return items;
}

/** Index of the `)` closing the `(` at `open`, or -1. */
export function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

interface Group {
  /** The identifier right before the `(`, '' if none. */
  name: string;
  nameStart: number;
  open: number;
  close: number;
}

/** Every top-level `( ... )` with the identifier before it; null if parentheses do not balance. */
function topLevelGroups(text: string): Group[] | null {
  const groups: Group[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ')') return null;
    if (text[i] !== '(') {
      i++;
      continue;
    }
    const close = matchingParen(text, i);
    if (close < 0) return null;
    const nameEnd = text[i - 1] === ' ' ? i - 1 : i;
    let nameStart = nameEnd;
    while (nameStart > 0 && /\w/.test(text[nameStart - 1]!)) nameStart--;
    groups.push({ name: text.slice(nameStart, nameEnd), nameStart, open: i, close });
    i = close + 1;
  }
  return groups;
}

/** Splits on commas outside brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
