// Original file: rvtconform/v1/rvtconform.proto


export interface CloseSessionResponse {
}

export interface CloseSessionResponse__Output {
}
