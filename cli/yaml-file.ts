import { parse } from 'yaml';
import type { z } from 'zod';
import { UserError } from '../spec/errors.js';
import { readInputFile } from '../spec/input-file.js';

/** A file a person writes for the CLI is a few kB; anything far larger is not the file they meant. */
const MAX_BYTES = 256 * 1024;

/**
 * Reads a short YAML (or JSON, which is YAML) file a person wrote for the CLI, checked by `schema`:
 * anything wrong is a UserError naming the file and the field (exit 2). No aliases, so no alias bomb.
 */
export async function loadYamlFile<S extends z.ZodType>(path: string, schema: S, what: string, hint: string): Promise<z.infer<S>> {
  const text = readInputFile(path, { what: `the ${what}`, maxBytes: MAX_BYTES, hint }).toString('utf8');
  let data: unknown;
  try {
    data = parse(text, { maxAliasCount: 0 });
  } catch (error) {
    throw new UserError(`${path} is not valid YAML: ${(error as Error).message.split('\n')[0]}`, { hint });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `  ${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new UserError(`${path} is not a valid ${what}:\n${issues.join('\n')}`, { hint });
  }
  return parsed.data;
}
