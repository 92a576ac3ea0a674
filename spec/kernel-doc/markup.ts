/**
 * Kernel-doc's inline markup (`@param`, `%CONST`, `&struct name`, `func()`, ``literal``) taken
 * out, as scripts/kernel-doc's man output does (@highlights_man without the fonts): the words a
 * reader sees. A change of markup alone (`-EINVAL` -> `%-EINVAL`) leaves this text as it was.
 */

const MARKUP: readonly (readonly [RegExp, string])[] = [
  [/\b``([^`]+)``\b/g, '$1'],
  [/%([-_\w]+)/g, '$1'],
  [/(\w+)\(\)/g, '$1'],
  [/&(enum\s*([_\w]+))/g, '$1'],
  [/&(struct\s*([_\w]+))/g, '$1'],
  [/&(typedef\s*([_\w]+))/g, '$1'],
  [/&(union\s*([_\w]+))/g, '$1'],
  [/@(\w*((\.\w+)|(->\w+))*(\.\.\.)?)/g, '$1'],
  [/([!]?)@(\w*((\.\w+)|(->\w+))*(\.\.\.)?)/g, '$1$2'],
  [/&([_\w]+)(\.|->)([_\w]+)/g, '$1$2$3'],
  [/&([_\w]+)/g, '$1'],
];

export function withoutMarkup(text: string): string {
  return MARKUP.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}
