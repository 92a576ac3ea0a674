// Original file: rvtconform/v1/rvtconform.proto


export interface UsageRequest {
}

export interface UsageRequest__Output {
}
