// Original file: rvtconform/v1/rvtconform.proto


export interface QueryDeviceRequest {
}

export interface QueryDeviceRequest__Output {
}
