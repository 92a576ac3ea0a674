import { z } from 'zod';

/** fuzz.json: one differential run, enough to replay its divergence exactly. */
export const FuzzResults = z.object({
  schemaVersion: z.literal(1),
  adapter: z.string(),
  reference: z.string(),
  profile: z.enum(['documented', 'rdmavt']),
  seed: z.number().int(),
  runs: z.number().int(),
  commands: z.number().int(),
  durationMs: z.number(),
  commandsPerSecond: z.number(),
  divergence: z
    .object({
      path: z.string(),
      commands: z.string(),
      message: z.string(),
      replay: z.string(),
    })
    .nullable(),
});
export type FuzzResults = z.infer<typeof FuzzResults>;
