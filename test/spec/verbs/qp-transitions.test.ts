import { describe, expect, it } from 'vitest';
import { modifyQpIsOk } from '../../../spec/verbs/qp-transitions.js';

describe('modifyQpIsOk (ib_modify_qp_is_ok)', () => {
  it('requires the RC masks of each step to RTS', () => {
    expect(modifyQpIsOk('RESET', 'INIT', 'RC', ['STATE', 'PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'])).toBe(true);
    expect(modifyQpIsOk('RESET', 'INIT', 'RC', ['STATE', 'PKEY_INDEX', 'PORT'])).toBe(false);
    expect(modifyQpIsOk('INIT', 'RTR', 'RC', ['STATE', 'AV', 'PATH_MTU', 'DEST_QPN', 'RQ_PSN', 'MAX_DEST_RD_ATOMIC', 'MIN_RNR_TIMER'])).toBe(true);
    expect(modifyQpIsOk('RTR', 'RTS', 'RC', ['STATE', 'TIMEOUT', 'RETRY_CNT', 'RNR_RETRY', 'SQ_PSN', 'MAX_QP_RD_ATOMIC'])).toBe(true);
  });

  it('rejects attributes outside required and optional, and transitions not in the table', () => {
    expect(modifyQpIsOk('RESET', 'INIT', 'RC', ['STATE', 'PKEY_INDEX', 'PORT', 'ACCESS_FLAGS', 'QKEY'])).toBe(false);
    expect(modifyQpIsOk('RESET', 'RTS', 'RC', ['STATE'])).toBe(false);
    expect(modifyQpIsOk('RESET', 'ERR', 'RC', ['STATE'])).toBe(false);
    expect(modifyQpIsOk('RTS', 'ERR', 'RC', ['STATE'])).toBe(true);
  });

  it('allows CUR_STATE only from RTR, RTS, SQD, SQE, and uses the UD masks for UD', () => {
    expect(modifyQpIsOk('INIT', 'INIT', 'RC', ['CUR_STATE'])).toBe(false);
    expect(modifyQpIsOk('RTS', 'RTS', 'RC', ['CUR_STATE'])).toBe(true);
    expect(modifyQpIsOk('RESET', 'INIT', 'UD', ['STATE', 'PKEY_INDEX', 'PORT', 'QKEY'])).toBe(true);
    expect(modifyQpIsOk('INIT', 'RTR', 'UD', ['STATE'])).toBe(true);
  });

  it('gives RC no optional mask for SQE -> RTS (verbs.c has no RC entry there), UD its CUR_STATE and QKEY', () => {
    expect(modifyQpIsOk('SQE', 'RTS', 'RC', ['STATE'])).toBe(true);
    expect(modifyQpIsOk('SQE', 'RTS', 'RC', ['STATE', 'ACCESS_FLAGS'])).toBe(false);
    expect(modifyQpIsOk('SQE', 'RTS', 'RC', ['STATE', 'CUR_STATE'])).toBe(false);
    expect(modifyQpIsOk('SQE', 'RTS', 'UD', ['STATE', 'CUR_STATE', 'QKEY'])).toBe(true);
  });
});
