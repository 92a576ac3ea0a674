import { readFileSync } from 'node:fs';
import { UserError } from '../../cli/errors.js';

/** Reads a file a flag names (a certificate, a key, a token), or says which flag and what is wrong. */
export function readCredential(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UserError(`${flag} ${path}: ${reason}`, { hint: `give ${flag} a readable file` });
  }
}

/** A token file holds the token on one line; surrounding whitespace (the final newline) is not part of it. */
export function readToken(flag: string, path: string): string {
  const token = readCredential(flag, path).toString('utf8').trim();
  if (token === '') throw new UserError(`${flag} ${path} is empty`, { hint: 'put the token in it, e.g. openssl rand -hex 32 > FILE' });
  return token;
}

/** --tls-cert and --tls-key: a certificate without its key (or the reverse) is a mistake, so say which half is missing. */
export function readKeyPair(cert: string | undefined, key: string | undefined): { cert: Buffer; key: Buffer } | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) {
    const missing = cert === undefined ? '--tls-cert' : '--tls-key';
    throw new UserError(`--tls-cert and --tls-key go together; ${missing} is missing`, { hint: `add ${missing} FILE` });
  }
  return { cert: readCredential('--tls-cert', cert), key: readCredential('--tls-key', key) };
}
