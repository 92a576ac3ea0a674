import { UserError } from '../spec/errors.js';
import { readInputFile } from '../spec/input-file.js';
import { RESULTS_SCHEMA_VERSION, RunResults } from './results-schema.js';

const MAX_ISSUES = 5;

/** A full run's results.json is a few MiB; V8 cannot hold a string much over 512 MiB. */
const MAX_RESULTS_BYTES = 256 << 20;

/**
 * Reads a results.json back and validates it with the schema it was written with; anything else
 * is a user error that names the file and what is wrong in it (exit 2), never a crash later on.
 */
export async function readResults(path: string): Promise<RunResults> {
  const text = readInputFile(path, {
    what: 'the results file',
    maxBytes: MAX_RESULTS_BYTES,
    hint: "give the results.json that 'rvt-conform run' wrote into its --out directory",
  }).toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== RESULTS_SCHEMA_VERSION) {
    throw new UserError(`${path} has results schema version ${JSON.stringify(version)}; this rvt-conform reads version ${RESULTS_SCHEMA_VERSION}`, {
      hint: 'run the suite again with this version of rvt-conform to get comparable results',
    });
  }
  const parsed = RunResults.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, MAX_ISSUES).map((i) => `  ${i.path.join('.') || '(top)'}: ${i.message}`);
    const more = parsed.error.issues.length > MAX_ISSUES ? [`  ... and ${parsed.error.issues.length - MAX_ISSUES} more`] : [];
    throw new UserError(`${path} is not a valid results.json:\n${[...issues, ...more].join('\n')}`, {
      hint: 'was it edited by hand? re-run the suite to write it again',
    });
  }
  return parsed.data;
}
