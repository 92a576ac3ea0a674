import type { Adapter, Session } from '../../../adapters/adapter.js';
import { modelAdapter } from '../../../adapters/model/index.js';

/** The model, with its sessions edited by `edit` as they open (a fake implementation for the fuzzer's tests). */
export function modelWith(edit: (session: Session) => void): Adapter {
  const model = modelAdapter();
  return {
    ...model,
    open: async () => {
      const session = await model.open();
      edit(session);
      return session;
    },
  };
}
