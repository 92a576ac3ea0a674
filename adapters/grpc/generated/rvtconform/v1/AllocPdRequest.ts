// Original file: rvtconform/v1/rvtconform.proto


export interface AllocPdRequest {
}

export interface AllocPdRequest__Output {
}
