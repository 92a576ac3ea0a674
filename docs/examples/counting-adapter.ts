// An adapter outside rvt-conform: the reference model with every verb a session answers counted.
// It has the shape of any adapter that wraps another (a tracer, a fault injector, a proxy to a lab
// machine). Build it, then: rvt-conform run --adapter ./counting-adapter.js --adapter-option report=stderr
import { type Adapter, type Session, callNames, defineAdapter, modelAdapter } from 'rvt-conform';
import { z } from 'zod';

function counting(inner: Adapter, report: 'none' | 'stderr'): Adapter {
  return {
    info: async () => ({ ...(await inner.info()), adapter: 'counting-model' }),
    async open() {
      const session = await inner.open();
      const counts = new Map<string, number>();
      const call = (name: string, args: unknown) => {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return (session[name as keyof Session] as (args: unknown) => Promise<unknown>)(args);
      };
      const verbs = Object.fromEntries(callNames.map((name) => [name, (args: unknown) => call(name, args)]));
      return {
        ...(verbs as Omit<Session, 'close'>),
        async close() {
          if (report === 'stderr') process.stderr.write(`counting-model: ${JSON.stringify(Object.fromEntries(counts))}\n`);
          await session.close();
        },
      };
    },
    dispose: () => inner.dispose(),
  };
}

export default defineAdapter({
  name: 'counting-model',
  description: 'the reference model, counting the verbs each session answers',
  options: z.strictObject({ report: z.enum(['none', 'stderr']).default('none') }),
  create: ({ report }) => counting(modelAdapter(), report),
});
