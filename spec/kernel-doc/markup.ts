/**
 * Kernel-doc's inline markup (`@param`, `%CONST`, `&struct name`, `func()`, ``literal``) taken
 * out, as scripts/kernel-doc's man output does (@highlights_man without the fonts): the words a
 * reader sees. A change of markup alone (`-EINVAL` -> `%-EINVAL`) leaves this text as it was.
 * Where the script wraps a word in a font (`\fBfoo\fP`), FONT stands in for the escapes until the
 * end: a later pattern must not match across them, so `&foo()` and `&@bar` keep their `&` as on
 * the page.
 */

const FONT = '\u0001';
const MARKUP: readonly (readonly [RegExp, string])[] = [
  [/\b``([^`]+)``\b/g, '$1'],
  [/%([-_\w]+)/g, '$1'],
  [/(\w+)\(\)/g, `${FONT}$1${FONT}`],
  [/&(enum\s*([_\w]+))/g, `${FONT}$1${FONT}`],
  [/&(struct\s*([_\w]+))/g, `${FONT}$1${FONT}`],
  [/&(typedef\s*([_\w]+))/g, `${FONT}$1${FONT}`],
  [/&(union\s*([_\w]+))/g, `${FONT}$1${FONT}`],
  [/@(\w*((\.\w+)|(->\w+))*(\.\.\.)?)/g, `${FONT}$1${FONT}`],
  [/([!]?)@(\w*((\.\w+)|(->\w+))*(\.\.\.)?)/g, `${FONT}$1$2${FONT}`],
  [/&([_\w]+)(\.|->)([_\w]+)/g, `${FONT}$1$2$3${FONT}`],
  [/&([_\w]+)/g, `${FONT}$1${FONT}`],
];

export function withoutMarkup(text: string): string {
  return MARKUP.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text).replaceAll(FONT, '');
}
