import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RDMAVT_KO_ENV, RDMAVT_SOURCE_ENV } from '../../vm/rdmavt-env.js';

/**
 * The loaded module's identity: the sha256 of its file (Debian's modules carry no srcversion in
 * /sys/module), the stock one found by modinfo unless RDMAVT_KO_ENV names the one built.
 */
function moduleDigest(): string {
  try {
    const file = process.env[RDMAVT_KO_ENV] ?? execFileSync('modinfo', ['-n', 'rdmavt'], { encoding: 'utf8' }).trim();
    return `${file} sha256 ${createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16)}`;
  } catch (error) {
    return `file unknown (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Which rdmavt.ko is loaded in this kernel: the stock one or one built from a source, and which file. */
export function rdmavtModule(): string {
  const source = process.env[RDMAVT_SOURCE_ENV];
  return `${source === undefined ? "the booted kernel's own rdmavt.ko" : `rdmavt.ko built from ${source}`}: ${moduleDigest()}`;
}
