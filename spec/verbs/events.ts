import { z } from 'zod';
import { Handle } from './ints.js';

/** enum ibv_event_type, by name (IBV_EVENT_<name>): the ones the suites observe. */
export const AsyncEventType = z.enum([
  'CQ_ERR',
  'QP_FATAL',
  'QP_REQ_ERR',
  'QP_ACCESS_ERR',
  'COMM_EST',
  'SQ_DRAINED',
  'PATH_MIG',
  'PATH_MIG_ERR',
  'DEVICE_FATAL',
  'PORT_ACTIVE',
  'PORT_ERR',
  'LID_CHANGE',
  'PKEY_CHANGE',
  'SM_CHANGE',
  'SRQ_ERR',
  'SRQ_LIMIT_REACHED',
  'QP_LAST_WQE_REACHED',
  'CLIENT_REREGISTER',
  'GID_CHANGE',
]);
export type AsyncEventType = z.infer<typeof AsyncEventType>;

/** One async event (ibv_get_async_event), already acknowledged by the adapter. */
export const AsyncEvent = z.object({
  event_type: AsyncEventType,
  element: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('qp'), qp: Handle }),
    z.object({ kind: z.literal('srq'), srq: Handle }),
    z.object({ kind: z.literal('cq'), cq: Handle }),
    z.object({ kind: z.literal('port'), port_num: z.number().int() }),
    z.object({ kind: z.literal('device') }),
  ]),
});
export type AsyncEvent = z.infer<typeof AsyncEvent>;
