/**
 * A writer for the cpio "newc" format the kernel unpacks as initramfs. Written here rather than
 * with cpio(1) so the archive can hold a /dev/console node without root or a staging directory.
 */

export type CpioEntry =
  | { kind: 'dir'; name: string; mode?: number }
  | { kind: 'file'; name: string; data: Buffer; mode?: number }
  | { kind: 'symlink'; name: string; target: string }
  | { kind: 'chardev'; name: string; major: number; minor: number; mode?: number };

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;

export function cpioArchive(entries: readonly CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  entries.forEach((entry, index) => parts.push(...record(entry, index + 1)));
  parts.push(...header({ ino: 0, mode: 0, nlink: 1, name: 'TRAILER!!!', data: Buffer.alloc(0) }));
  return Buffer.concat(parts);
}

function record(entry: CpioEntry, ino: number): Buffer[] {
  switch (entry.kind) {
    case 'dir':
      return header({ ino, mode: S_IFDIR | (entry.mode ?? 0o755), nlink: 2, name: entry.name, data: Buffer.alloc(0) });
    case 'file':
      return header({ ino, mode: S_IFREG | (entry.mode ?? 0o644), nlink: 1, name: entry.name, data: entry.data });
    case 'symlink':
      return header({ ino, mode: S_IFLNK | 0o777, nlink: 1, name: entry.name, data: Buffer.from(entry.target) });
    case 'chardev':
      return header({
        ino,
        mode: S_IFCHR | (entry.mode ?? 0o600),
        nlink: 1,
        name: entry.name,
        data: Buffer.alloc(0),
        rdev: [entry.major, entry.minor],
      });
  }
}

interface Header {
  ino: number;
  mode: number;
  nlink: number;
  name: string;
  data: Buffer;
  rdev?: [number, number];
}

function header(h: Header): Buffer[] {
  const name = Buffer.from(`${h.name}\0`);
  const fields = [
    h.ino, h.mode, 0 /* uid */, 0 /* gid */, h.nlink, 0 /* mtime: fixed, so archives are reproducible */,
    h.data.length, 0, 0 /* dev */, h.rdev?.[0] ?? 0, h.rdev?.[1] ?? 0, name.length, 0 /* check */,
  ];
  const head = Buffer.from(`070701${fields.map((f) => f.toString(16).padStart(8, '0')).join('')}`, 'ascii');
  return [head, name, padding(head.length + name.length), h.data, padding(h.data.length)];
}

/** newc aligns both the name (after the 110-byte header) and the data to 4 bytes. */
function padding(length: number): Buffer {
  return Buffer.alloc((4 - (length % 4)) % 4);
}
