// Original file: rvtconform/v1/rvtconform.proto


export interface SessionOpened {
}

export interface SessionOpened__Output {
}
