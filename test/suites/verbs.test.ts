import { describe, expect, it } from 'vitest';
import type { Session } from '../../adapters/adapter.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { AdapterContractError, modelVerbs, tracedVerbs } from '../../suites/verbs.js';

describe('modelVerbs, the verbs of a model of this process', () => {
  it('answers what tracedVerbs answers, the return normalised, a failure too', async () => {
    const [a, b] = [await modelAdapter().open(), await modelAdapter().open()];
    const traced = tracedVerbs(a, 'kernel', []);
    const direct = modelVerbs(b, 'kernel');
    expect(await direct.allocPd({})).toEqual(await traced.allocPd({}));
    const refused = await direct.createCq({ cqe: 0 });
    expect(refused).toEqual(await traced.createCq({ cqe: 0 }));
    expect(refused).toMatchObject({ errno: 'EINVAL' });
  });

  it('does not validate: what the session answers is what the caller gets, where tracedVerbs refuses it', async () => {
    const session = await modelAdapter().open();
    const malformed: Session = { ...session, allocPd: async () => ({ rawReturn: 0, pd: -1 }) };
    expect(await modelVerbs(malformed, 'kernel').allocPd({})).toMatchObject({ pd: -1, errno: null });
    await expect(tracedVerbs(malformed, 'kernel', []).allocPd({})).rejects.toThrow(AdapterContractError);
  });
});
