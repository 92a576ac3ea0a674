import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (one level up from src, two from dist, three from the guest bundle). */
function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'rvt-conform' && pkg.version) return pkg.version;
    } catch {
      // not at this level; try the next
    }
  }
  return '0.0.0';
}

export const TOOL_VERSION = readVersion();
