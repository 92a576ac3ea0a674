import { capacityCases } from './capacity.js';
import { consumptionCases } from './consumption.js';
import { lkeyCases } from './lkey.js';

/** rvt_post_srq_recv's own cases; what every post verb shares is in ../post-family. */
export const postSrqRecvCases = [...lkeyCases, ...capacityCases, ...consumptionCases];
