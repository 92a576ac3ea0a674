import { perlSplit } from './text.js';

/**
 * The constants of an enum as scripts/kernel-doc lists them (dump_enum): comments and `#define`,
 * `#ifdef` and `#endif` lines taken out, then each comma-separated item's first word (an item
 * that starts otherwise, such as an `#if` line, is kept whole, as the script keeps it).
 */

export type EnumResult =
  | { kind: 'ok'; name: string; constants: string[] }
  | { kind: 'mismatch'; declaredName: string }
  | { kind: 'unparsable' };

/** `documentedName` is '' for an anonymous enum, which the script names `(anonymous)`. */
export function enumConstants(text: string, documentedName: string): EnumResult {
  const flat = text.replace(/\/\*.*?\*\//gs, '').replace(/#\s*((define|ifdef)\s+|endif)[^;]*;/gs, '');
  const found = /typedef\s+enum\s*\{(.*)\}\s*(\w*)\s*;/.exec(flat) ?? /enum\s+(\w*)\s*\{(.*)\}/.exec(flat);
  if (!found) return { kind: 'unparsable' };
  const [name, body] = found[0].startsWith('typedef') ? [found[2]!, found[1]!] : [found[1]!, found[2]!];
  if (body === '' || body === '0') return { kind: 'unparsable' };
  if (name !== documentedName) return { kind: 'mismatch', declaredName: name };
  const items = perlSplit(body.replace(/\s+$/, ''), ',');
  return { kind: 'ok', name: name === '' ? '(anonymous)' : name, constants: items.map((item) => item.replace(/^\s*(\w+).*/s, '$1')) };
}
