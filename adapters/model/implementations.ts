import type { Behaviour } from './behaviour.js';
import { rdmavt } from './rdmavt.js';

/** The smallest power of two >= n. */
const pow2 = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

function variant(name: string, description: string, change: Partial<Behaviour>): Behaviour {
  return { ...rdmavt, defaultProfile: 'documented', ...change, name, description };
}

/**
 * Other implementations of the same verbs, as the model can take them (semantics.md section 5,
 * read from their sources): they differ from rdmavt only where the contract leaves room.
 * `--adapter model:<name>`; each must pass the documented profile.
 */
export const implementations: Record<string, Behaviour> = {
  rxe: variant('rxe', 'rdma-core rxe provider (providers/rxe/rxe.c): full then num_sge, 2^k - 1 capacity, positive errno', {
    layer: 'libibverbs',
    recvChecks: ['full', 'num_sge'],
    ringSize: (maxWr) => pow2(maxWr + 1),
  }),
  'rxe-kernel': variant('rxe-kernel', 'kernel rxe (drivers/infiniband/sw/rxe): full then num_sge, 2^k - 1 capacity, negative errno', {
    recvChecks: ['full', 'num_sge'],
    ringSize: (maxWr) => pow2(maxWr + 1),
  }),
  siw: variant('siw', 'kernel siw (drivers/infiniband/sw/siw): full then num_sge, 2^k capacity, negative errno', {
    recvChecks: ['full', 'num_sge'],
    ringSize: (maxWr) => pow2(maxWr) + 1,
  }),
  mlx5: variant('mlx5', 'rdma-core mlx5 provider (providers/mlx5/srq.c): num_sge then full, 2^k - 1 capacity, positive errno', {
    layer: 'libibverbs',
    ringSize: (maxWr) => pow2(maxWr + 1),
  }),
  hfi1verbs: variant('hfi1verbs', 'rdma-core hfi1verbs provider: rdmavt\'s checks and capacity, positive errno', {
    layer: 'libibverbs',
  }),
};
