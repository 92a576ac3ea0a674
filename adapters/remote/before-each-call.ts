import type { Adapter, Session } from '../adapter.js';

/**
 * `adapter` with `before(name)` run before its sessions open (`open`) and before each of their
 * calls: how a worker's test hooks (a crash, a kernel fault on purpose) reach the calls of a case
 * it runs itself, as they reach the calls that arrive as requests.
 */
export function beforeEachCall(adapter: Adapter, before: (name: string) => void): Adapter {
  return {
    ...adapter,
    open: async () => {
      before('open');
      const session = await adapter.open();
      return new Proxy(session, {
        get: (target, key: string) => {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            before(key);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as Session;
    },
  };
}
