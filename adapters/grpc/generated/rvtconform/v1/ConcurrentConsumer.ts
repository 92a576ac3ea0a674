// Original file: rvtconform/v1/rvtconform.proto


export interface ConcurrentConsumer {
  'messages'?: (number);
  '_messages'?: "messages";
}

export interface ConcurrentConsumer__Output {
  'messages'?: (number);
}
