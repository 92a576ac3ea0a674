// Original file: rvtconform/v1/rvtconform.proto


export interface GetAsyncEventsRequest {
}

export interface GetAsyncEventsRequest__Output {
}
