/** A case's time ran out: its body, or its close, did not finish within the budget. */
export class Timeout extends Error {}

/** The run was stopped (Ctrl-C, SIGTERM) while a case ran: the case ends there, unfinished. */
export class Interrupted extends Error {}

/** `promise`, unless `ms` pass first (a Timeout) or `signal` aborts (Interrupted): a hung adapter never holds the run. */
export function bounded<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  let stop!: (error: Error) => void;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const timer = setTimeout(() => stop(new Timeout(`no result after ${ms} ms`)), ms);
  const onAbort = () => stop(new Interrupted('the run was interrupted'));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return Promise.race([promise, stopped]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}
