import * as grpc from '@grpc/grpc-js';
import { InfrastructureError } from '../../spec/errors.js';
import type { CaseHost, HostedCaseEnd } from '../adapter.js';
import { toWire } from '../remote/wire.js';
import { decodeEnd, type RunCaseResponse, runCasesMethod } from './run-case.js';
import { serviceError } from './status.js';

export interface CaseStreamOptions {
  client: grpc.Client;
  target: string;
  metadata: () => grpc.Metadata;
  /** Added to each case's budget for its answer's deadline: the agent kills the case at the budget and then answers. */
  graceMs: number;
  /** What a failed call (a gRPC status) means for the user: the client adapter's mapping. */
  failure: (error: unknown, call: string) => Error;
}

const lost = (error: Error): HostedCaseEnd => ({ kind: 'lost', error, timedOut: false, progress: [] });

/**
 * The client's side of rpc RunCases: one stream for the run, a message a case, answers matched by
 * id. A stream that fails loses the cases in flight (the agent gone is an InfrastructureError,
 * which stops the run) and the next case opens a fresh one. An agent that runs no cases
 * (UNIMPLEMENTED, for the stream or a case) is not asked again: its cases run here, verb by verb.
 */
export function caseStream(options: CaseStreamOptions): { caseHost: CaseHost; dispose(): void } {
  const { client, target, failure } = options;
  let stream: grpc.ClientDuplexStream<object, object> | undefined;
  const pending = new Map<number, (end: HostedCaseEnd) => void>();
  let nextId = 1;
  let agentRunsNoCases = false;

  const settleAll = (end: (id: number) => HostedCaseEnd) => {
    for (const [id, settle] of [...pending]) {
      pending.delete(id);
      settle(end(id));
    }
  };

  const answered = (response: RunCaseResponse): HostedCaseEnd => {
    if (response.code === grpc.status.UNIMPLEMENTED) agentRunsNoCases = true;
    // UNIMPLEMENTED: an agent without cases; INVALID_ARGUMENT: one of another version, without this case
    if (response.code === grpc.status.UNIMPLEMENTED || response.code === grpc.status.INVALID_ARGUMENT) return { kind: 'declined' };
    if (response.code !== undefined) return lost(failure(serviceError({ code: response.code, details: response.details ?? '' }), 'runCase'));
    const end = response.end === undefined ? undefined : decodeEnd(response.end);
    return (
      end ??
      lost(new InfrastructureError(`runCase on the agent at ${target}: the agent's answer is not a case's end`, { hint: 'run the same rvt-conform version on both sides (rvt-conform --version)' }))
    );
  };

  const open = (): grpc.ClientDuplexStream<object, object> => {
    const { path, requestSerialize, responseDeserialize } = runCasesMethod.definition;
    const opened = client.makeBidiStreamRequest(path, requestSerialize, responseDeserialize, options.metadata());
    opened.on('data', (message: object) => {
      const response = runCasesMethod.decodeResponse(message);
      const settle = response === undefined ? undefined : pending.get(response.id);
      if (response === undefined || settle === undefined) return;
      pending.delete(response.id);
      settle(answered(response));
    });
    const die = (error: grpc.ServiceError) => {
      if (stream === opened) stream = undefined;
      // an agent before RunCases has no such rpc
      if (error.code === grpc.status.UNIMPLEMENTED) {
        agentRunsNoCases = true;
        settleAll(() => ({ kind: 'declined' }));
      } else {
        settleAll(() => lost(failure(error, 'runCase')));
      }
    };
    opened.on('error', die);
    // the agent ending the stream unasked is going away: infrastructure, not the device's doing
    opened.on('end', () => die(serviceError({ code: grpc.status.UNAVAILABLE, details: 'the agent ended the stream of cases' })));
    return opened;
  };

  const caseHost: CaseHost = {
    runCase: (request, budgetMs, signal) =>
      new Promise<HostedCaseEnd>((resolve) => {
        if (agentRunsNoCases) return resolve({ kind: 'declined' });
        const id = nextId++;
        const current = (stream ??= open());
        const timer = setTimeout(() => {
          // the agent should have killed the case and answered by now: it is stuck or gone
          pending.delete(id);
          resolve(lost(failure(serviceError({ code: grpc.status.DEADLINE_EXCEEDED, details: `no answer within ${budgetMs + options.graceMs} ms` }), 'runCase')));
        }, budgetMs + options.graceMs);
        // a stopped run cancels the stream: the agent kills what runs its cases
        const cancel = () => current.cancel();
        pending.set(id, (end) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', cancel);
          resolve(end);
        });
        current.write(runCasesMethod.encodeRequest({ id, request: toWire(request), budgetMs }));
        if (signal?.aborted) cancel();
        else signal?.addEventListener('abort', cancel, { once: true });
      }),
  };

  return {
    caseHost,
    dispose: () => {
      stream?.end();
      stream = undefined;
    },
  };
}
