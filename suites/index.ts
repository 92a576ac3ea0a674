import type { Case } from './case.js';
import { postSrqRecvCases } from './post_srq_recv/index.js';

/** Every shared case, grouped by verb; ids are unique (checked by the tests). */
export const allCases: readonly Case[] = [...postSrqRecvCases];
