import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CA, the agent's certificate for 127.0.0.1, and a client certificate: PEM files in a temp dir. */
export interface Certificates {
  dir: string;
  files: { ca: string; agentCert: string; agentKey: string; clientCert: string; clientKey: string };
  read(file: string): Buffer;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function signed(dir: string, name: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', ...KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-out', `${name}.pem`, '-extfile', `${name}.ext`]);
}

/** Made with the openssl CLI, as an operator would; `agentNames`: the agent certificate's subjectAltName. */
export function makeCertificates(agentNames = 'IP:127.0.0.1,DNS:localhost'): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'rvt-grpc-certs-'));
  openssl(dir, ['req', '-x509', ...KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=rvt-conform test CA']);
  signed(dir, 'agent', `subjectAltName=${agentNames}\nextendedKeyUsage=serverAuth\n`);
  signed(dir, 'client', 'extendedKeyUsage=clientAuth\n');
  const files = {
    ca: join(dir, 'ca.pem'),
    agentCert: join(dir, 'agent.pem'),
    agentKey: join(dir, 'agent.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
  };
  return { dir, files, read: (file) => readFileSync(file) };
}

/** A self-signed certificate and its key that expired in 2020 (openssl req cannot back-date one; openssl ca can). */
export function expiredCertificate(dir: string): { cert: string; key: string } {
  mkdirSync(join(dir, 'expired-db'), { recursive: true });
  writeFileSync(join(dir, 'expired-db', 'index.txt'), '');
  writeFileSync(join(dir, 'expired-db', 'serial'), '01\n');
  const config = '[ca]\ndefault_ca = d\n[d]\ndatabase = expired-db/index.txt\nnew_certs_dir = expired-db\nserial = expired-db/serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n';
  writeFileSync(join(dir, 'expired.cnf'), config);
  openssl(dir, ['req', ...KEY, '-keyout', 'expired.key', '-out', 'expired.csr', '-subj', '/CN=expired']);
  openssl(dir, ['ca', '-batch', '-config', 'expired.cnf', '-selfsign', '-keyfile', 'expired.key', '-in', 'expired.csr', '-out', 'expired.pem', '-startdate', '20190101000000Z', '-enddate', '20200101000000Z']);
  return { cert: join(dir, 'expired.pem'), key: join(dir, 'expired.key') };
}
