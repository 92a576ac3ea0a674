// Original file: rvtconform/v1/rvtconform.proto


export interface SessionBegin {
}

export interface SessionBegin__Output {
}
