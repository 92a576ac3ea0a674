import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { UserError } from '../../spec/errors.js';

/**
 * Where a kprobe sees an inlined copy run: `CALLER+0xOFF`, CALLER being the symbol kallsyms names
 * (a clone keeps its suffix: `rvt_send_complete.part.0`), OFF the copy's first instruction in it.
 */
export const InlineSite = z.string().regex(/^[A-Za-z_][\w.]*\+0x[0-9a-f]+$/, 'CALLER+0xOFFSET');

/**
 * The inlined copies of one module build's own functions, from the DWARF of its debug package
 * (scripts/inline-sites.mjs): the function tracer cannot see them, a kprobe at each copy can.
 */
export const InlineSiteTable = z.object({
  module: z.string().regex(/^\w+$/),
  /** The kernel release the build belongs to. */
  release: z.string(),
  /** Where the DWARF came from: the debug package and its version. */
  source: z.string(),
  /** The module's .note.gnu.build-id: the table holds for that build and no other. */
  buildId: z.string().regex(/^[0-9a-f]{16,128}$/),
  /** Function -> each inlined copy's site, sorted. A function absent here has no copy in the module's run-time text. */
  // a function's name with its copy's index is a kprobe event's name, which the kernel keeps under 64 characters
  sites: z.record(z.string().regex(/^[A-Za-z_]\w{0,55}$/), z.array(InlineSite).min(1)),
});
export type InlineSiteTable = z.infer<typeof InlineSiteTable>;

/** The committed tables, beside this module in the sources; the compiled module (dist/, the guest bundle) finds them from three levels down. */
const TABLE_DIRS = ['./inline-sites/', '../../../adapters/kernel/inline-sites/'];

export function inlineSiteTablesDir(): string {
  const dirs = TABLE_DIRS.map((dir) => fileURLToPath(new URL(dir, import.meta.url)));
  return dirs.find((dir) => existsSync(dir)) ?? (dirs[0] as string);
}

/** Every committed table, each checked against its schema (a malformed one is named, never skipped). */
export function loadInlineSiteTables(dir = inlineSiteTablesDir()): InlineSiteTable[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const parsed = InlineSiteTable.safeParse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      if (!parsed.success) throw new UserError(`${join(dir, name)}: not an inline-site table (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`, { hint: 'regenerate it with scripts/inline-sites.mjs' });
      return parsed.data;
    });
}

/** The table of exactly this build of `module`, if one is committed. */
export function inlineSiteTableFor(module: string, buildId: string, tables: readonly InlineSiteTable[]): InlineSiteTable | undefined {
  return tables.find((table) => table.module === module && table.buildId === buildId);
}

/**
 * The table to probe `module` with, or why there is none: the table must be of the loaded build
 * exactly, since another build's offsets would put kprobes at unrelated instructions.
 */
export function inlineSitesOf(module: string, buildId: string | undefined, tables: readonly InlineSiteTable[]): { table: InlineSiteTable } | { reason: string } {
  if (buildId === undefined) return { reason: `no inline-site table for this build: the kernel shows no build-id of ${module} (/sys/module/${module}/notes/.note.gnu.build-id)` };
  const table = inlineSiteTableFor(module, buildId, tables);
  return table === undefined ? { reason: `no inline-site table for this build (build-id ${buildId}; scripts/inline-sites.mjs makes one from the kernel's -dbg package)` } : { table };
}

/**
 * The build-id in an ELF note section as the kernel exposes it
 * (/sys/module/M/notes/.note.gnu.build-id): namesz, descsz, type (3, NT_GNU_BUILD_ID), the name
 * "GNU\0" padded to 4 bytes, then the id. Undefined when the bytes are not that note.
 */
export function buildIdFromNote(note: Uint8Array): string | undefined {
  const NT_GNU_BUILD_ID = 3;
  const view = new DataView(note.buffer, note.byteOffset, note.byteLength);
  let at = 0;
  // a notes section may hold several notes: walk to the GNU build-id one
  while (at + 12 <= note.byteLength) {
    const namesz = view.getUint32(at, true);
    const descsz = view.getUint32(at + 4, true);
    const type = view.getUint32(at + 8, true);
    const nameAt = at + 12;
    const descAt = nameAt + align4(namesz);
    if (descAt + descsz > note.byteLength) return undefined;
    const name = Buffer.from(note.subarray(nameAt, nameAt + namesz)).toString('latin1');
    if (type === NT_GNU_BUILD_ID && name === 'GNU\0' && descsz > 0) return Buffer.from(note.subarray(descAt, descAt + descsz)).toString('hex');
    at = descAt + align4(descsz);
  }
  return undefined;
}

const align4 = (n: number) => (n + 3) & ~3;

/** The loaded module's build-id, from sysfs; undefined when the kernel does not show it. */
export function loadedModuleBuildId(module: string, sysModule = '/sys/module'): string | undefined {
  const path = join(sysModule, module, 'notes', '.note.gnu.build-id');
  return existsSync(path) ? buildIdFromNote(readFileSync(path)) : undefined;
}
