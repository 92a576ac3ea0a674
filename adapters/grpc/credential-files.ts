import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { UserError } from '../../spec/errors.js';
import { readInputFile } from '../../spec/input-file.js';

/** A certificate chain, a key or a token is a few kB; a CA bundle a few hundred. */
const MAX_CREDENTIAL_BYTES = 1 << 20;

/** Reads a file a flag names (a certificate, a key, a token), or says which flag and what is wrong. */
export function readCredential(flag: string, path: string): Buffer {
  return readInputFile(path, { what: flag, maxBytes: MAX_CREDENTIAL_BYTES, hint: `give ${flag} a readable file` });
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

/** What a credential check says the user should know but need not stop for (an expired certificate). */
export type Warn = (line: string) => void;

/**
 * Reads a PEM certificate (the first of a chain or a bundle) and checks that it is one, before any
 * socket is bound or opened: grpc-js takes any bytes and fails only at the first handshake. An
 * expired certificate is said at start: peers will refuse it, but a clock may be wrong.
 */
export function readCertificate(flag: string, path: string, warn: Warn): { pem: Buffer; x509: X509Certificate } {
  const pem = readCredential(flag, path);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(pem);
  } catch (error) {
    throw new UserError(`${flag} ${path} is not a PEM certificate (${error instanceof Error ? error.message : String(error)})`, {
      hint: `give ${flag} a certificate in PEM form (-----BEGIN CERTIFICATE-----), e.g. from openssl x509 -outform PEM`,
    });
  }
  if (Date.parse(x509.validTo) < Date.now()) warn(`${flag} ${path}: the certificate expired on ${x509.validTo}; TLS peers will refuse it`);
  return { pem, x509 };
}

/**
 * --tls-cert and --tls-key: a certificate without its key (or the reverse) is a mistake, so say
 * which half is missing; each must be what its flag says, and the key the certificate's.
 */
export function readKeyPair(cert: string | undefined, key: string | undefined, warn: Warn): { cert: Buffer; key: Buffer } | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) {
    const missing = cert === undefined ? '--tls-cert' : '--tls-key';
    throw new UserError(`--tls-cert and --tls-key go together; ${missing} is missing`, { hint: `add ${missing} FILE` });
  }
  const certificate = readCertificate('--tls-cert', cert, warn);
  const pem = readCredential('--tls-key', key);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new UserError(`--tls-key ${key} is not a PEM private key (${error instanceof Error ? error.message : String(error)})`, {
      hint: 'give --tls-key the unencrypted private key in PEM form (-----BEGIN PRIVATE KEY-----) of the --tls-cert certificate',
    });
  }
  if (!certificate.x509.checkPrivateKey(privateKey)) {
    throw new UserError(`--tls-key ${key} is not the key of the certificate in --tls-cert ${cert}`, { hint: 'give the key the certificate was made for' });
  }
  return { cert: certificate.pem, key: pem };
}
