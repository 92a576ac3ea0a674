// Original file: rvtconform/v1/rvtconform.proto


export interface CloseSessionRequest {
}

export interface CloseSessionRequest__Output {
}
