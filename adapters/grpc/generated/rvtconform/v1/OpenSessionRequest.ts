// Original file: rvtconform/v1/rvtconform.proto


export interface OpenSessionRequest {
}

export interface OpenSessionRequest__Output {
}
