import { join } from 'node:path';
import { projectRoot } from '../vm/project-root.js';

/** The model's own waivers as the reports name them: the file in the package. */
export const MODEL_EXPECTATIONS = 'expectations/model.yaml';

/**
 * The expectations a run reads when none is given: the model's (and its variants', `model:NAME`)
 * own, which waive what a Node process cannot show (interrupt context), so `rvt-conform run` in a
 * project that installed the package passes as `npm run conform` does here. Any other adapter
 * has none by default: its deviations are for its owner to write.
 */
export function defaultExpectations(adapter: string): { path: string; shown: string } | undefined {
  if (adapter !== 'model' && !adapter.startsWith('model:')) return undefined;
  return { path: join(projectRoot(), MODEL_EXPECTATIONS), shown: MODEL_EXPECTATIONS };
}
