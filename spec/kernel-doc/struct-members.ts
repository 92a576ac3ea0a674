import { matchingParen } from './c-declaration.js';
import { perlSplit } from './text.js';

/**
 * The members of a struct or union as scripts/kernel-doc names them (dump_struct, then
 * create_parameterlist and push_parameter): a port of its rewrites, quirks included, since what it
 * names is what the documentation shows. Members marked `private:` are left out (until a
 * `public:`); struct_group() and the DECLARE_BITMAP-like macros are unwrapped; a nested named
 * struct's members are `outer.inner`, an anonymous one's keep their own names; a function-pointer
 * member is named by its pointer.
 */

export type StructResult =
  /** `type` as the definition says: the page of a `struct foo` comment on `union foo {` is the union's. */
  | { kind: 'ok'; type: 'struct' | 'union'; name: string; members: string[] }
  | { kind: 'mismatch'; declaredName: string }
  | { kind: 'unparsable' };

const ATTRIBUTE = String.raw`__attribute__\s*\(\([a-z0-9,_*\s()]*\)\)`;
const ARG = String.raw`([^,)]+)`;
// The macros the script rewrites into the members they declare, in its order.
const MACROS: readonly (readonly [RegExp, string])[] = [
  [/__ETHTOOL_DECLARE_LINK_MODE_MASK\s*\(([^)]+)\)/g, 'DECLARE_BITMAP($1, __ETHTOOL_LINK_MODE_MASK_NBITS)'],
  [/DECLARE_PHY_INTERFACE_MASK\s*\(([^)]+)\)/g, 'DECLARE_BITMAP($1, PHY_INTERFACE_MODE_MAX)'],
  [new RegExp(String.raw`DECLARE_BITMAP\s*\(${ARG},\s*${ARG}\)`, 'g'), 'unsigned long $1[BITS_TO_LONGS($2)]'],
  [new RegExp(String.raw`DECLARE_HASHTABLE\s*\(${ARG},\s*${ARG}\)`, 'g'), 'unsigned long $1[1 << (($2) - 1)]'],
  [new RegExp(String.raw`DECLARE_KFIFO\s*\(${ARG},\s*${ARG},\s*${ARG}\)`, 'g'), '$2 *$1'],
  [new RegExp(String.raw`DECLARE_KFIFO_PTR\s*\(${ARG},\s*${ARG}\)`, 'g'), '$2 *$1'],
  [new RegExp(String.raw`(?:__)?DECLARE_FLEX_ARRAY\s*\(${ARG},\s*${ARG}\)`, 'g'), '$1 $2[]'],
];
const STRIPPED: readonly (readonly [RegExp, string])[] = [
  // private: up to public: (or the end), then every other comment
  [/\/\*\s*private:.*?\/\*\s*public:.*?\*\//gis, ''],
  [/\/\*\s*private:.*/gis, ''],
  [/\/\*.*?\*\//gs, ''],
  [new RegExp(String.raw`\s*${ATTRIBUTE}`, 'gi'), ' '],
  [/\s*__aligned\s*\([^;]*\)/g, ' '],
  [/\s*__packed\s*/g, ' '],
  [/\s*CRYPTO_MINALIGN_ATTR/g, ' '],
  [/\s*____cacheline_aligned_in_smp/g, ' '],
  [/\s*____cacheline_aligned/g, ' '],
  // struct_group()'s arguments before the members
  [/\bstruct_group\s*\(([^,]*,)/g, 'STRUCT_GROUP('],
  [/\bstruct_group_(attr|tagged)\s*\(([^,]*,){2}/g, 'STRUCT_GROUP('],
  [/\b__struct_group\s*\(([^,]*,){3}/g, 'STRUCT_GROUP('],
];
const NESTED = /(struct|union)([^{};]+)\{([^{}]*)\}([^{};]*);/;

const QUALIFIERS = String.raw`(?:${ATTRIBUTE}|__packed|__aligned|____cacheline_aligned_in_smp|____cacheline_aligned)*`;
const NAMED = /(struct|union)\s+(\w+)\s*\{(.*)\}/;
const TYPEDEF = new RegExp(String.raw`typedef\s+(struct|union)\s*\{(.*)\}\s*${QUALIFIERS}\s*(\w+)\s*;`, 'i');

/** `struct foo { ... }` or `typedef struct { ... } foo;`, as dump_struct finds them. */
function definition(text: string): { type: string; name: string; body: string } | null {
  const named = NAMED.exec(text);
  if (named) return { type: named[1]!, name: named[2]!, body: named[3]! };
  const typedef = TYPEDEF.exec(text);
  return typedef ? { type: typedef[1]!, name: typedef[3]!, body: typedef[2]! } : null;
}

export function structMembers(text: string, documentedName: string): StructResult {
  const found = definition(text);
  // An empty body is "Cannot parse struct or union!" to the script.
  if (!found || found.body === '') return { kind: 'unparsable' };
  const { type, name, body } = found;
  if (name !== documentedName) return { kind: 'mismatch', declaredName: name };
  let members = STRIPPED.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), body);
  members = unwrapStructGroups(members);
  members = MACROS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), members);
  for (let nested = NESTED.exec(members); nested; nested = NESTED.exec(members)) {
    const flattened = flattenNested(nested[1]!, nested[3]!, nested[4]!);
    members = members.slice(0, nested.index) + flattened + members.slice(nested.index + nested[0].length);
  }
  // Other nested bodies (enums) are not members.
  members = members.replace(/\{[^{}]*\}/g, '');
  return { kind: 'ok', type: type as 'struct' | 'union', name, members: parameterNames(members) };
}

/** `STRUCT_GROUP(members);` -> `members`, left to right, one pass (the script's recursive pattern). */
function unwrapStructGroups(text: string): string {
  let out = '';
  let at = 0;
  for (let found = text.indexOf('STRUCT_GROUP(', at); found >= 0; found = text.indexOf('STRUCT_GROUP(', at)) {
    const open = found + 'STRUCT_GROUP'.length;
    const close = matchingParen(text, open);
    const end = close < 0 ? -1 : text.indexOf(';', close);
    const boundary = found === 0 || !/\w/.test(text[found - 1]!);
    if (!boundary || end < 0) {
      out += text.slice(at, open);
      at = open;
      continue;
    }
    out += text.slice(at, found) + text.slice(open + 1, close);
    at = end + 1;
  }
  return out + text.slice(at);
}

/** A nested `struct { ... } ids;` as the members it declares, named as the script names them. */
function flattenNested(type: string, content: string, ids: string): string {
  let out = '';
  for (const rawId of perlSplit(ids, ',')) {
    out += `${type} ${rawId}; `;
    const id = rawId.replace(/[:[].*/s, '').replace(/^\s*\**(\S+)\s*/, '$1');
    const anonymous = id.trim() === '';
    for (const arg of perlSplit(content, ';')) {
      if (arg.trim() === '') continue;
      const pointer = /^([^(]+\(\*?\s*)([\w.]*)(\s*\).*)/s.exec(arg);
      if (pointer) {
        const [, head, name, tail] = pointer as unknown as [string, string, string, string];
        if (name !== '' && name !== '0') out += anonymous ? `${head}${name}${tail}; ` : `${head}${id}.${name}${tail}; `;
        continue;
      }
      const flat = arg
        .trim()
        .replace(/:\s*\d+\s*/g, '')
        .replace(/\[.*\]/gs, '')
        .replace(/\s*,\s*/g, ',');
      const split = /^(.*)\s+([\S+,]+)/s.exec(flat);
      if (!split) {
        out += `${flat}; `;
        continue;
      }
      for (const rawName of perlSplit(split[2]!, ',')) {
        const name = rawName.replace(/^\s*\**(\S+)\s*/, '$1');
        if (name.trim() === '') continue;
        out += anonymous ? `${split[1]} ${name}; ` : `${split[1]} ${id}.${name}; `;
      }
    }
  }
  return out;
}

/**
 * Commas inside a function pointer's parameters do not separate members: the script turns them
 * into `#` (repeating `s/(\([^),]+),/$1#/g` until none is left, which is quadratic; this is the
 * same in one pass). A comma goes when a `(` that no `)` has closed yet comes before it, not right
 * before it.
 */
function hideParameterCommas(text: string): string {
  let open = -1; // the first `(` since the last `)`
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '(' && open < 0) open = i;
    else if (char === ')') open = -1;
    out += char === ',' && open >= 0 && i > open + 1 ? '#' : char;
  }
  return out;
}

/**
 * The names create_parameterlist pushes for `;`-separated members, without what the page leaves
 * out or fills in itself: preprocessor lines, `{unnamed_struct}` ("anonymous") and `void`.
 */
function parameterNames(members: string): string[] {
  const text = hideParameterCommas(members);
  const names: string[] = [];
  let afterAnonymous = false;
  const push = (param: string, type: string) => {
    if (afterAnonymous && type === '' && param === '}') return;
    afterAnonymous = false;
    const name = param.replace(/[[)].*/s, '');
    if (type === '' && (name === 'struct' || name === 'union')) afterAnonymous = true;
    else if (!(type === '' && (name === '' || name === 'void')) && !name.startsWith('#')) names.push(name);
  };
  for (const raw of perlSplit(text, ';')) {
    const arg = raw.replace(/\/\*.*\*\//s, '').trim().replace(/\s+/, ' ');
    if (arg.startsWith('#')) {
      push(arg, '');
      continue;
    }
    if (/\(.+\)\s*\(/s.test(arg)) {
      const pointer = /[^(]+\(\*?\s*([\w[\].]*)\s*\)/.exec(arg.replace(/#/g, ','));
      push(pointer?.[1] ?? '', 'function pointer');
      continue;
    }
    if (arg === '') continue;
    const args = perlSplit(arg.replace(/\s*:\s*/g, ':').replace(/\s*\[/g, '['), /\s*,\s*/);
    if (args.length === 0) args.push('');
    if (args[0]!.includes('*')) args[0] = args[0]!.replace(/(\*+)\s*/, ' $1');
    const withArray = /^(.*\s+)(.*?\[.*\].*)$/s.exec(args[0]!);
    const firstArg = withArray ? [...perlSplit(withArray[1]!, /\s+/), withArray[2]!] : perlSplit(args[0]!, /\s+/);
    args[0] = firstArg.pop() ?? '';
    const type = firstArg.join(' ');
    for (const param of args) {
      const pointer = /^(\*+)\s*(.*)/s.exec(param);
      const bitfield = /(.*?):(\d+)/s.exec(param);
      if (pointer) push(pointer[2]!, `${type} ${pointer[1]}`);
      else if (bitfield) {
        if (type !== '') push(bitfield[1]!, `${type}:${bitfield[2]}`);
      } else push(param, type);
    }
  }
  return names;
}
