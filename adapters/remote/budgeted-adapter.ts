import { InfrastructureError } from '../../spec/errors.js';
import type { Adapter, Session } from '../adapter.js';
import { callNames } from '../calls.js';
import type { HostLimits } from './budget.js';
import { OverBudget } from './refusals.js';
import { SessionHost } from './session-host.js';

/**
 * `adapter` with a host's budgets on its sessions' calls: how a case an agent hands to a worker
 * (suites/case-worker.ts) stays within what the agent granted its client, as the client's own
 * calls would. A refusal over a budget is the agent's limit, not the implementation's answer: it
 * stops the run (InfrastructureError), as RESOURCE_EXHAUSTED does a client's. For the suites'
 * verbs layer only, which validates what goes in and comes out.
 */
export function budgetedAdapter(adapter: Adapter, limits: HostLimits): Adapter {
  // the case's verbs layer validates each call both ways (suites/verbs.ts): the host only applies the budgets
  const host = new SessionHost(adapter, limits, 'all');
  const refusal = (error: unknown) => {
    if (!(error instanceof OverBudget)) throw error;
    throw new InfrastructureError(`the agent's ${error.budget} budget refused a call of the case: ${error.message}`, {
      hint: 'run when the agent is less busy, or start it with higher --max-* limits (docs/vendor-lab.md: "Limits and the cost model")',
    });
  };
  return {
    ...adapter,
    open: async () => {
      const id = await host.open('case');
      const session = { close: () => host.close(id) } as Session;
      for (const name of callNames) (session as unknown as Record<string, unknown>)[name] = (args: unknown) => host.call(id, name, args).catch(refusal);
      return session;
    },
  };
}
