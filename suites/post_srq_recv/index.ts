import { badWrCases } from './bad_wr.js';
import { capacityCases } from './capacity.js';
import { consumptionCases } from './consumption.js';
import { numSgeCases } from './num_sge.js';
import { successCases } from './success.js';

export const postSrqRecvCases = [...successCases, ...badWrCases, ...numSgeCases, ...capacityCases, ...consumptionCases];
