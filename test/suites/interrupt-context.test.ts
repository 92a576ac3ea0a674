import { describe, expect, it } from 'vitest';
import type { Adapter, Session } from '../../adapters/adapter.js';
import { modelAdapter } from '../../adapters/model/index.js';
import type { ObservedContext, PostContext } from '../../spec/verbs/outcome.js';
import { interruptContextCases } from '../../suites/interrupt-context.js';
import { runAgainst } from '../helpers.js';

/**
 * The model behind an adapter that claims post_contexts: a fake for testing the cases only. It
 * reports each post's context as `seen` says, so the cases can be shown to catch a post that did
 * not run where it was asked to.
 */
function claimsContexts(seen: (requested: PostContext) => Omit<ObservedContext, 'requested'>): Adapter {
  const base = modelAdapter();
  const tag = <R extends object>(context: PostContext | undefined, r: R) => ({ ...r, context: { requested: context ?? 'process', ...seen(context ?? 'process') } });
  return {
    ...base,
    info: async () => {
      const info = await base.info();
      return { ...info, capabilities: [...info.capabilities, 'post_contexts'] };
    },
    open: async (): Promise<Session> => {
      const s = await base.open();
      return {
        ...s,
        postSrqRecv: async ({ context, ...args }) => tag(context, await s.postSrqRecv(args)),
        postRecv: async ({ context, ...args }) => tag(context, await s.postRecv(args)),
        postSend: async ({ context, ...args }) => tag(context, await s.postSend(args)),
      };
    },
  };
}

const truthful = (c: PostContext) => ({ hardirq: c === 'hardirq', softirq: c === 'softirq', irqs_disabled: c !== 'process', task: c === 'process' || c === 'irqs-off', preempt_count: 0, cpu: 0 });

describe('interrupt-context cases', () => {
  it('are not observable on an adapter without calling contexts, and say why', async () => {
    const runs = await runAgainst(modelAdapter(), interruptContextCases);
    expect(runs.map((r) => r.status)).toEqual(['not-observable', 'not-observable', 'not-observable']);
    expect(runs[0]?.checks[0]?.reason).toMatch(/only by calling it from a kernel module/);
  });

  it('pass when every post comes back with the process-context answers, from the context asked for', async () => {
    const runs = await runAgainst(claimsContexts(truthful), interruptContextCases);
    expect(runs.map((r) => [r.case.id, r.status])).toEqual(interruptContextCases.map((c) => [c.id, 'pass']));
  });

  it('fail when the posts did not run where they were asked to (an adapter that says hard IRQ but posts from a task)', async () => {
    const runs = await runAgainst(claimsContexts(() => truthful('process')), interruptContextCases);
    expect(runs.map((r) => r.status)).toEqual(['fail', 'fail', 'fail']);
    const failed = runs[0]?.checks.filter((c) => c.status === 'fail').map((c) => c.what);
    expect(failed).toEqual(['the irqs-off posts ran in that context (irqs_disabled())', 'the softirq posts ran in that context (in_serving_softirq())', 'the hardirq posts ran in that context (in_hardirq())']);
  });

  it('the model refuses a post from any other context instead of ignoring it', async () => {
    const session = await modelAdapter().open();
    await expect(session.postSrqRecv({ srq: 1, wrs: [], context: 'hardirq' })).rejects.toThrow(/the model cannot post from hardirq context/);
    await expect(session.postSend({ qp: 1, wrs: [], context: 'softirq' })).rejects.toThrow(/cannot post from softirq context/);
  });
});
