// Original file: rvtconform/v1/rvtconform.proto


export interface InfoRequest {
}

export interface InfoRequest__Output {
}
