import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { collapseWhitespace } from './kernel-doc/text.js';
import { plainText, requestOf, splitSections } from './kernel-doc/troff.js';

/** Where man(1) finds the pages libibverbs-dev installs. */
export const MAN_ROOT = '/usr/share/man';

/** An installed man page, as plain text with whitespace collapsed, by `.SH` name (upper case). */
export type ManPageText = ReadonlyMap<string, string>;

/** A page as troff source gives it, one entry per `.SH` section. */
export function manPageText(troff: string): ManPageText {
  const lines = troff.split(/\r?\n/);
  return new Map(splitSections(lines, 0, lines.length).map((s) => [s.name, collapseWhitespace(plainText(lines.slice(s.start, s.end)))]));
}

/**
 * The installed page that a citation names ('ibv_post_send(3)'), gzipped or not, with `.so`
 * requests replaced by the file they name: some packages install a page shared by several
 * functions as `.so man3/other.3`. Throws when a page is not installed.
 */
export function readManPage(page: string, root = MAN_ROOT): ManPageText {
  const cited = /^([\w.-]+)\((\w+)\)$/.exec(page);
  if (!cited) throw new Error(`${page} is not a man page name like ibv_post_send(3)`);
  return manPageText(readTroff(root, `man${cited[2]![0]}/${cited[1]}.${cited[2]}`, []));
}

/** `.so` paths are relative to the man root, as man(1) resolves them. */
function readTroff(root: string, path: string, including: readonly string[]): string {
  if (including.includes(path)) throw new Error(`.so loop: ${[...including, path].join(' -> ')}`);
  const file = join(root, path);
  const troff = existsSync(`${file}.gz`) ? gunzipSync(readFileSync(`${file}.gz`)).toString('utf8') : existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (troff === undefined) throw new Error(`${path} is not installed under ${root} (nor ${path}.gz)`);
  return troff
    .split(/\r?\n/)
    .map((line) => {
      const request = requestOf(line);
      return request?.name === 'so' ? readTroff(root, request.args[0] ?? '', [...including, path]) : line;
    })
    .join('\n');
}
