import * as grpc from '@grpc/grpc-js';
import { InfrastructureError } from '../../spec/errors.js';
import type { CaseHost, HostedCaseEnd, HostedRequest } from '../adapter.js';
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

/** A request written to the stream: its answer, when it comes, settles `end`. */
interface Sent {
  id: number;
  wire: string;
  budgetMs: number;
  stream: grpc.ClientDuplexStream<object, object>;
  end: Promise<HostedCaseEnd>;
  /** Stops watching the run's signal for it (a request written ahead is withdrawn when the run stops). */
  unwatch: () => void;
}

/**
 * The client's side of rpc RunCases: one stream for the run, a message a case, answers matched by
 * id. The agent runs a stream's cases one after another in order, so the run's next case is
 * written as soon as it is known (`next`): it starts the moment the one before ends, and the run
 * does not wait a round trip between cases. Its callers take turns, as the runner does (cases
 * that must run at once need a client each: one stream's cases never overlap). A request written
 * ahead and not asked for is withdrawn (its stream cancelled): when the run asks for another, stops
 * (its signal, an infrastructure failure) or disposes the client. A stream that fails loses the
 * cases in flight (the agent gone is an InfrastructureError, which stops the run) and the next case
 * opens a fresh one. An agent that runs no cases (UNIMPLEMENTED, for the stream or a case) is asked
 * nothing more after that answer: its cases run here, verb by verb.
 */
export function caseStream(options: CaseStreamOptions): { caseHost: CaseHost; dispose(): void } {
  const { client, target, failure } = options;
  let stream: grpc.ClientDuplexStream<object, object> | undefined;
  /** The requests written and not answered, with the stream each went on. */
  const pending = new Map<number, { on: grpc.ClientDuplexStream<object, object>; settle: (end: HostedCaseEnd) => void }>();
  let nextId = 1;
  let agentRunsNoCases = false;
  /** The request written ahead of its turn, until the run asks for it. */
  let ahead: Sent | undefined;

  /** Ends what was in flight on a stream that failed; a stream since opened keeps its own. */
  const settleAll = (gone: grpc.ClientDuplexStream<object, object>, end: HostedCaseEnd) => {
    for (const [id, { on, settle }] of [...pending]) {
      if (on !== gone) continue;
      pending.delete(id);
      settle(end);
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
      const entry = response === undefined ? undefined : pending.get(response.id);
      if (response === undefined || entry === undefined) return;
      pending.delete(response.id);
      entry.settle(answered(response));
    });
    const die = (error: grpc.ServiceError) => {
      if (stream === opened) stream = undefined;
      // an agent before RunCases has no such rpc
      if (error.code === grpc.status.UNIMPLEMENTED) {
        agentRunsNoCases = true;
        settleAll(opened, { kind: 'declined' });
      } else {
        settleAll(opened, lost(failure(error, 'runCase')));
      }
    };
    opened.on('error', die);
    // the agent ending the stream unasked is going away: infrastructure, not the device's doing
    opened.on('end', () => die(serviceError({ code: grpc.status.UNAVAILABLE, details: 'the agent ended the stream of cases' })));
    return opened;
  };

  const send = (request: unknown, budgetMs: number): Sent => {
    const id = nextId++;
    const current = (stream ??= open());
    const end = new Promise<HostedCaseEnd>((settle) => pending.set(id, { on: current, settle }));
    const wire = toWire(request);
    current.write(runCasesMethod.encodeRequest({ id, request: wire, budgetMs }));
    return { id, wire, budgetMs, stream: current, end, unwatch: () => {} };
  };

  /** Writes the run's next request ahead; the run stopping before it asks for it (its signal) withdraws it. */
  const sendAhead = (next: HostedRequest, signal: AbortSignal | undefined): Sent => {
    const sent = send(next.request, next.budgetMs);
    const stopped = () => {
      if (ahead === sent) withdraw();
    };
    signal?.addEventListener('abort', stopped, { once: true });
    sent.unwatch = () => signal?.removeEventListener('abort', stopped);
    return sent;
  };

  /**
   * Takes back the request sent ahead that the run did not ask for: the stream goes, with whatever
   * of it the agent had begun (it kills that case's worker), and the next request opens a fresh one.
   */
  const withdraw = () => {
    if (ahead === undefined) return;
    const { stream: gone } = ahead;
    ahead.unwatch();
    ahead = undefined;
    if (stream === gone) stream = undefined;
    gone.cancel();
  };

  const caseHost: CaseHost = {
    runCase: async (request, budgetMs, signal, next) => {
      if (agentRunsNoCases) return { kind: 'declined' };
      if (signal?.aborted) {
        withdraw();
        return lost(new Error('the run was interrupted'));
      }
      const asked = toWire(request);
      const taken = ahead !== undefined && ahead.wire === asked && ahead.budgetMs === budgetMs && ahead.stream === stream ? ahead : undefined;
      if (taken === undefined) withdraw();
      taken?.unwatch();
      ahead = undefined;
      const sent = taken ?? send(request, budgetMs);
      if (next !== undefined) ahead = sendAhead(next, signal);
      let timer: NodeJS.Timeout | undefined;
      // a stopped run cancels the stream: the agent kills what runs its cases
      const cancel = () => sent.stream.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      const end = await Promise.race([
        sent.end,
        new Promise<HostedCaseEnd>((resolve) => {
          timer = setTimeout(() => {
            // the agent should have killed the case and answered by now: it is stuck or gone, and so is what waits behind it
            pending.delete(sent.id);
            if (ahead?.stream === sent.stream) withdraw();
            sent.stream.cancel();
            resolve(lost(failure(serviceError({ code: grpc.status.DEADLINE_EXCEEDED, details: `no answer within ${budgetMs + options.graceMs} ms` }), 'runCase')));
          }, budgetMs + options.graceMs);
        }),
      ]);
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      // declined here, the case runs in this process, verb by verb: nothing may run on the agent beside it;
      // an infrastructure failure stops the run, and nothing more is asked
      if (end.kind === 'declined' || (end.kind === 'lost' && end.error instanceof InfrastructureError)) withdraw();
      return end;
    },
  };

  return {
    caseHost,
    dispose: () => {
      // a case sent ahead that the run never asked for must not run after the client has gone
      withdraw();
      stream?.end();
      stream = undefined;
    },
  };
}
