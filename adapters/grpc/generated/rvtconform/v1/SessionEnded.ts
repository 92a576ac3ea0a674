// Original file: rvtconform/v1/rvtconform.proto


export interface SessionEnded {
}

export interface SessionEnded__Output {
}
