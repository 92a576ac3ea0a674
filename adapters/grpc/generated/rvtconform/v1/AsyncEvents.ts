// Original file: rvtconform/v1/rvtconform.proto

import type { AsyncEvent as _rvtconform_v1_AsyncEvent, AsyncEvent__Output as _rvtconform_v1_AsyncEvent__Output } from '../../rvtconform/v1/AsyncEvent.js';

export interface AsyncEvents {
  'events'?: (_rvtconform_v1_AsyncEvent)[];
}

export interface AsyncEvents__Output {
  'events': (_rvtconform_v1_AsyncEvent__Output)[];
}
