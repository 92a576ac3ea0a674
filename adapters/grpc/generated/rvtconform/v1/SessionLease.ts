// Original file: rvtconform/v1/rvtconform.proto


export interface SessionLease {
  /**
   * Unguessable: it is the only thing that gives access to the session's resources.
   */
  'session'?: (string);
  '_session'?: "session";
}

export interface SessionLease__Output {
  /**
   * Unguessable: it is the only thing that gives access to the session's resources.
   */
  'session'?: (string);
}
