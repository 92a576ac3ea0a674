import { z } from 'zod';
import { ExpectationsFile } from '../reports/expectations/schema.js';
import { FindingsFile } from '../reports/findings/schema.js';
import { RunResults } from '../reports/results-schema.js';
import { FuzzFile } from '../reports/fuzz-file.js';
import { ConfigFile } from './config-file.js';

/**
 * The JSON Schemas shipped in schemas/, generated from the zod schemas (the single source of
 * truth): for other tools reading results.json, and for editors checking an expectations file
 * (`# yaml-language-server: $schema=../schemas/expectations.schema.json`).
 * The expectations and config schemas describe what a person writes (input); results.json and findings.json what the tool writes (output);
 * fuzz.json is written encoded (FuzzFile.encode: a wr_id as a decimal string), which is the schema's input.
 */
export const JSON_SCHEMAS = {
  // reports/json-value.ts's JsonValue is a zod custom check: in JSON Schema, {} (a JSON document holds nothing else).
  'results.schema.json': () => z.toJSONSchema(RunResults, { io: 'output', unrepresentable: 'any' }),
  'expectations.schema.json': () => z.toJSONSchema(ExpectationsFile, { io: 'input' }),
  // Input drops additionalProperties: false, which the tool's own output keeps.
  'fuzz.schema.json': () =>
    z.toJSONSchema(FuzzFile, {
      io: 'input',
      override: ({ jsonSchema }) => {
        if (jsonSchema.type === 'object') jsonSchema.additionalProperties = false;
      },
    }),
  'findings.schema.json': () => z.toJSONSchema(FindingsFile, { io: 'output', unrepresentable: 'any' }),
  'config.schema.json': () => z.toJSONSchema(ConfigFile, { io: 'input' }),
} as const;

export const renderJsonSchema = (name: keyof typeof JSON_SCHEMAS): string => `${JSON.stringify(JSON_SCHEMAS[name](), null, 2)}\n`;
