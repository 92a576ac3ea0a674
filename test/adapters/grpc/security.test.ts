import * as grpc from '@grpc/grpc-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { InfrastructureError } from '../../../spec/errors.js';
import { allCases } from '../../../suites/index.js';
import { referenceModel, runAgainst } from '../../helpers.js';
import { type Certificates, makeCertificates } from './certificates.js';
import { RawClient, serveModel, statusOfCall } from './fixture.js';

const TOKEN = 'correct horse battery staple';
const someCases = allCases.slice(0, 3);
const localStatuses = async () => (await runAgainst(referenceModel(), someCases)).map((r) => r.status);

describe('the agent with a bearer token', () => {
  it('serves a client with the token', async () => {
    const served = await serveModel({ token: TOKEN });
    const runs = await runAgainst(served.client({ token: TOKEN }), someCases);
    expect(runs.map((r) => r.status)).toEqual(await localStatuses());
  });

  it('refuses a missing or wrong token with UNAUTHENTICATED, before anything is opened or created', async () => {
    const served = await serveModel({ token: TOKEN });
    await expect(served.client().info()).rejects.toThrow(InfrastructureError);
    await expect(served.client({ token: 'wrong' }).open()).rejects.toThrow(/refused this client.*token/);

    const session = await new RawClient(served.agent.address, TOKEN).openSession();
    for (const raw of [new RawClient(served.agent.address), new RawClient(served.agent.address, `${TOKEN}!`)]) {
      expect(await statusOfCall(raw.openSession())).toBe(grpc.status.UNAUTHENTICATED);
      expect(await statusOfCall(raw.unary(agentService.AllocPd, {}, session))).toBe(grpc.status.UNAUTHENTICATED);
      expect(await statusOfCall(raw.unary(agentService.CloseSession, {}, session))).toBe(grpc.status.UNAUTHENTICATED);
    }
    expect(served.agent.host.accounting()).toEqual({ sessions: 1, resources: 0 });
    // two refusals through the client adapter, six raw ones: each logged
    expect(served.log.filter((line) => line.includes('status=UNAUTHENTICATED'))).toHaveLength(2 + 6);
  });
});

describe('the agent over TLS', () => {
  let certs: Certificates;
  beforeAll(() => {
    certs = makeCertificates();
  });

  const agentTls = (clientCa?: Buffer) => ({ cert: certs.read(certs.files.agentCert), key: certs.read(certs.files.agentKey), clientCa });

  it('serves a client that trusts its CA, and no plaintext or untrusting client', async () => {
    const served = await serveModel({ tls: agentTls() });
    const runs = await runAgainst(served.client({ tls: { ca: certs.read(certs.files.ca) } }), someCases);
    expect(runs.map((r) => r.status)).toEqual(await localStatuses());
    await expect(served.client().info()).rejects.toThrow(/cannot reach the rvt-conform agent/);
    await expect(served.client({ tls: {} }).info()).rejects.toThrow(/cannot reach the rvt-conform agent/);
  });

  it('with --client-ca, serves only clients with a certificate from that CA (mutual TLS)', async () => {
    const served = await serveModel({ tls: agentTls(certs.read(certs.files.ca)) });
    const ca = certs.read(certs.files.ca);
    const withCertificate = served.client({ tls: { ca, cert: certs.read(certs.files.clientCert), key: certs.read(certs.files.clientKey) } });
    expect((await runAgainst(withCertificate, someCases)).map((r) => r.status)).toEqual(await localStatuses());
    await expect(served.client({ tls: { ca } }).open()).rejects.toThrow(InfrastructureError);
    // the agent's own certificate is from the CA too, but not for client authentication
    const wrongUse = served.client({ tls: { ca, cert: certs.read(certs.files.agentCert), key: certs.read(certs.files.agentKey) } });
    await expect(wrongUse.open()).rejects.toThrow(InfrastructureError);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });
});
