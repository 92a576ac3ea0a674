import { readFileSync } from 'node:fs';
import { UserError } from '../../spec/errors.js';

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
  // A gRPC header carries printable ASCII only; grpc-js would refuse anything else with the whole
  // header, token included, in its message: say where the bad character is, never what the token is.
  const bad = [...token].findIndex((c) => c < ' ' || c > '~');
  if (bad >= 0) {
    throw new UserError(`${flag} ${path}: the token has a character a gRPC header cannot carry (character ${bad + 1}: a line break, a control or a non-ASCII character)`, {
      hint: 'a token is one line of printable ASCII, e.g. openssl rand -hex 32 > FILE',
    });
  }
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
