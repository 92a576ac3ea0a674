import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
