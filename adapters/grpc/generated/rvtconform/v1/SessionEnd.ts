// Original file: rvtconform/v1/rvtconform.proto


export interface SessionEnd {
}

export interface SessionEnd__Output {
}
