/** Kernel-doc: read the kernel's documented contract, pin it, and notice when it drifts. */
export {
  CParam,
  canonicalSectionName,
  Diagnostic,
  DiagnosticCode,
  DocEntry,
  DocKind,
  DocParam,
  DocSection,
  findSection,
  Signature,
} from './schema.js';
export { parseKernelDoc, type KernelDocParse } from './parse.js';
export { parseManPage, parseManPages, type ManPageParse } from './man.js';
export { kernelVersionFromMakefile, openKernelSource, RDMAVT_DIR, type KernelSource } from './kernel-source.js';
export {
  buildSnapshot,
  loadSnapshot,
  serializeSnapshot,
  setName,
  Snapshot,
  SNAPSHOT_FILES,
  SnapshotFile,
  type BuildOptions,
} from './snapshot.js';
export { diffSnapshots, DriftEntry, DriftKind, DriftReport, renderDrift } from './drift.js';
