import type { QpAttrMask, QpState, QpType } from './attrs.js';

/**
 * The QP state machine as the kernel checks it: `qp_state_table` and `ib_modify_qp_is_ok`
 * in linux: drivers/infiniband/core/verbs.c (6.1), for RC and UD. Each allowed transition
 * lists the attributes that must be in the mask and those that may be.
 */
type Masks = { required: readonly QpAttrMask[]; optional: readonly QpAttrMask[] };
type Transition = Partial<Record<'RC' | 'UD', Masks>>;

const none: Masks = { required: [], optional: [] };
const same = (masks: Masks): Transition => ({ RC: masks, UD: masks });

const rcPathOpt: QpAttrMask[] = ['CUR_STATE', 'ALT_PATH', 'ACCESS_FLAGS', 'MIN_RNR_TIMER', 'PATH_MIG_STATE'];
const udRtsOpt: QpAttrMask[] = ['CUR_STATE', 'QKEY'];

export const QP_TRANSITIONS: Partial<Record<QpState, Partial<Record<QpState, Transition>>>> = {
  RESET: {
    RESET: same(none),
    INIT: {
      RC: { required: ['PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'], optional: [] },
      UD: { required: ['PKEY_INDEX', 'PORT', 'QKEY'], optional: [] },
    },
  },
  INIT: {
    RESET: same(none),
    ERR: same(none),
    INIT: {
      RC: { required: [], optional: ['PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'] },
      UD: { required: [], optional: ['PKEY_INDEX', 'PORT', 'QKEY'] },
    },
    RTR: {
      RC: {
        required: ['AV', 'PATH_MTU', 'DEST_QPN', 'RQ_PSN', 'MAX_DEST_RD_ATOMIC', 'MIN_RNR_TIMER'],
        optional: ['ALT_PATH', 'ACCESS_FLAGS', 'PKEY_INDEX'],
      },
      UD: { required: [], optional: ['PKEY_INDEX', 'QKEY'] },
    },
  },
  RTR: {
    RESET: same(none),
    ERR: same(none),
    RTS: {
      RC: { required: ['TIMEOUT', 'RETRY_CNT', 'RNR_RETRY', 'SQ_PSN', 'MAX_QP_RD_ATOMIC'], optional: rcPathOpt },
      UD: { required: ['SQ_PSN'], optional: udRtsOpt },
    },
  },
  RTS: {
    RESET: same(none),
    ERR: same(none),
    RTS: { RC: { required: [], optional: rcPathOpt }, UD: { required: [], optional: udRtsOpt } },
    SQD: same({ required: [], optional: ['EN_SQD_ASYNC_NOTIFY'] }),
  },
  SQD: {
    RESET: same(none),
    ERR: same(none),
    RTS: { RC: { required: [], optional: rcPathOpt }, UD: { required: [], optional: udRtsOpt } },
    SQD: {
      RC: {
        required: [],
        optional: [
          'PORT', 'AV', 'TIMEOUT', 'RETRY_CNT', 'RNR_RETRY', 'MAX_QP_RD_ATOMIC', 'MAX_DEST_RD_ATOMIC',
          'ALT_PATH', 'ACCESS_FLAGS', 'PKEY_INDEX', 'MIN_RNR_TIMER', 'PATH_MIG_STATE',
        ],
      },
      UD: { required: [], optional: ['PKEY_INDEX', 'QKEY'] },
    },
  },
  SQE: {
    RESET: same(none),
    ERR: same(none),
    // verbs.c gives SQE -> RTS no RC entry (RC never reaches SQE): valid with neither mask.
    RTS: { RC: none, UD: { required: [], optional: udRtsOpt } },
  },
  ERR: {
    RESET: same(none),
    ERR: same(none),
  },
};

/** `ib_modify_qp_is_ok`: is this modify allowed, given the current state and the mask? */
export function modifyQpIsOk(current: QpState, next: QpState, type: QpType, mask: readonly QpAttrMask[]): boolean {
  if (mask.includes('CUR_STATE') && !['RTR', 'RTS', 'SQD', 'SQE'].includes(current)) return false;
  const masks = QP_TRANSITIONS[current]?.[next]?.[type === 'UD' ? 'UD' : 'RC'];
  if (masks === undefined) return false;
  if (!masks.required.every((m) => mask.includes(m))) return false;
  return mask.every((m) => m === 'STATE' || masks.required.includes(m) || masks.optional.includes(m));
}
