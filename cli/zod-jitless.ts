/**
 * zod without its compiled fast path, for the guest's snapshot (imported first, before any schema
 * is made): zod compiles each object schema's parser with `new Function` on first use, and under
 * the VM's emulated CPU fresh code costs more than it saves (0.6-1 s less per guest run without
 * it, measured); validation is the same either way.
 */
import { z } from 'zod';

z.config({ jitless: true });
