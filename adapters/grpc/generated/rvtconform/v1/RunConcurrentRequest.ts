// Original file: rvtconform/v1/rvtconform.proto

import type { ConcurrentPoster as _rvtconform_v1_ConcurrentPoster, ConcurrentPoster__Output as _rvtconform_v1_ConcurrentPoster__Output } from '../../rvtconform/v1/ConcurrentPoster.js';
import type { ConcurrentConsumer as _rvtconform_v1_ConcurrentConsumer, ConcurrentConsumer__Output as _rvtconform_v1_ConcurrentConsumer__Output } from '../../rvtconform/v1/ConcurrentConsumer.js';
import type { ConcurrentResize as _rvtconform_v1_ConcurrentResize, ConcurrentResize__Output as _rvtconform_v1_ConcurrentResize__Output } from '../../rvtconform/v1/ConcurrentResize.js';
import type { ConcurrentArm as _rvtconform_v1_ConcurrentArm, ConcurrentArm__Output as _rvtconform_v1_ConcurrentArm__Output } from '../../rvtconform/v1/ConcurrentArm.js';

export interface RunConcurrentRequest {
  'max_wr'?: (number);
  'srq_limit'?: (number);
  'posters'?: (_rvtconform_v1_ConcurrentPoster)[];
  'consumers'?: (_rvtconform_v1_ConcurrentConsumer)[];
  'resizes'?: (_rvtconform_v1_ConcurrentResize)[];
  'arms'?: (_rvtconform_v1_ConcurrentArm)[];
  'hardirq_posters'?: (number);
  'timeout_ms'?: (number);
  'num_sge'?: (number);
  'consumer_depth'?: (number);
  /**
   * Bytes per SEND into each posted WR's last SGE (a buffer per WR); 0 or absent: zero-length SENDs.
   */
  'payload'?: (number);
  '_max_wr'?: "max_wr";
  '_srq_limit'?: "srq_limit";
  '_hardirq_posters'?: "hardirq_posters";
  '_timeout_ms'?: "timeout_ms";
  '_num_sge'?: "num_sge";
  '_consumer_depth'?: "consumer_depth";
  '_payload'?: "payload";
}

export interface RunConcurrentRequest__Output {
  'max_wr'?: (number);
  'srq_limit'?: (number);
  'posters': (_rvtconform_v1_ConcurrentPoster__Output)[];
  'consumers': (_rvtconform_v1_ConcurrentConsumer__Output)[];
  'resizes': (_rvtconform_v1_ConcurrentResize__Output)[];
  'arms': (_rvtconform_v1_ConcurrentArm__Output)[];
  'hardirq_posters'?: (number);
  'timeout_ms'?: (number);
  'num_sge'?: (number);
  'consumer_depth'?: (number);
  /**
   * Bytes per SEND into each posted WR's last SGE (a buffer per WR); 0 or absent: zero-length SENDs.
   */
  'payload'?: (number);
}
