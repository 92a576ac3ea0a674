// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Where *bad_wr pointed: the index of a WR in the posted list, or untouched, null, foreign.
 */
export interface _rvtconform_v1_PostOutcome_BadWr {
  'index'?: (number | string | Long);
  'pointer'?: (string);
  'at'?: "index"|"pointer";
}

/**
 * Where *bad_wr pointed: the index of a WR in the posted list, or untouched, null, foreign.
 */
export interface _rvtconform_v1_PostOutcome_BadWr__Output {
  'index'?: (string);
  'pointer'?: (string);
}

/**
 * The calling context the kernel adapter saw while the driver's post ran.
 */
export interface _rvtconform_v1_PostOutcome_ObservedContext {
  'requested'?: (string);
  'hardirq'?: (boolean);
  'softirq'?: (boolean);
  'irqs_disabled'?: (boolean);
  'task'?: (boolean);
  'preempt_count'?: (number);
  'cpu'?: (number);
  '_requested'?: "requested";
  '_hardirq'?: "hardirq";
  '_softirq'?: "softirq";
  '_irqs_disabled'?: "irqs_disabled";
  '_task'?: "task";
  '_preempt_count'?: "preempt_count";
  '_cpu'?: "cpu";
}

/**
 * The calling context the kernel adapter saw while the driver's post ran.
 */
export interface _rvtconform_v1_PostOutcome_ObservedContext__Output {
  'requested'?: (string);
  'hardirq'?: (boolean);
  'softirq'?: (boolean);
  'irqs_disabled'?: (boolean);
  'task'?: (boolean);
  'preempt_count'?: (number);
  'cpu'?: (number);
}

export interface PostOutcome {
  'raw_return'?: (number);
  'bad_wr'?: (_rvtconform_v1_PostOutcome_BadWr | null);
  'context'?: (_rvtconform_v1_PostOutcome_ObservedContext | null);
  /**
   * The errno a failed post left (libibverbs), beside the return value.
   */
  'errno_set'?: (number);
  '_raw_return'?: "raw_return";
  '_bad_wr'?: "bad_wr";
  '_context'?: "context";
  '_errno_set'?: "errno_set";
}

export interface PostOutcome__Output {
  'raw_return'?: (number);
  'bad_wr'?: (_rvtconform_v1_PostOutcome_BadWr__Output);
  'context'?: (_rvtconform_v1_PostOutcome_ObservedContext__Output);
  /**
   * The errno a failed post left (libibverbs), beside the return value.
   */
  'errno_set'?: (number);
}
