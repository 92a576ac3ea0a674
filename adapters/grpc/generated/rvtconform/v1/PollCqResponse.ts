// Original file: rvtconform/v1/rvtconform.proto

import type { WorkCompletion as _rvtconform_v1_WorkCompletion, WorkCompletion__Output as _rvtconform_v1_WorkCompletion__Output } from '../../rvtconform/v1/WorkCompletion.js';

export interface PollCqResponse {
  'raw_return'?: (number);
  'completions'?: (_rvtconform_v1_WorkCompletion)[];
  '_raw_return'?: "raw_return";
}

export interface PollCqResponse__Output {
  'raw_return'?: (number);
  'completions': (_rvtconform_v1_WorkCompletion__Output)[];
}
