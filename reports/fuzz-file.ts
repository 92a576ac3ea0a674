import type { z } from 'zod';
import { FuzzResults } from '../suites/fuzz/report-schema.js';
import { KernelCoverage } from './kernel-coverage.js';

/**
 * fuzz.json as written: the fuzzer's record (suites/fuzz/report-schema.ts) and, with
 * --kernel-coverage, the driver's functions as run's results.json has them (the SEE ALSO table
 * first), there by run: `cases` counts the runs, and each function's `cases` names the one run
 * that reached it first (`run 7`). The table's schema lives with the reports, a layer above the
 * fuzzer's.
 */
export const FuzzFile = FuzzResults.extend({ kernelCoverage: KernelCoverage.optional() });
export type FuzzFile = z.infer<typeof FuzzFile>;
