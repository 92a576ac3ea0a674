import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { UserError } from './errors.js';

/** A file the user names for the CLI to read, as its messages speak of it. */
export interface InputFile {
  /** What it is, before its path in a message: "the expectations file", "--tls-cert". */
  what: string;
  /** Far more than the file it should be can hold: a larger one is not the file the user meant. */
  maxBytes: number;
  /** What to do instead. */
  hint: string;
}

/** The common reasons a file cannot be read, in words; others by their code. */
const WHY: Record<string, string> = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'a directory, not a file', ENOTDIR: 'a part of the path is not a folder' };
const why = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined ? String(error) : `${WHY[code] ?? code}${code in WHY ? ` (${code})` : ''}`;
};

const size = (bytes: number) => (bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : `${bytes / 1024} KiB`);

/**
 * Reads a file the user named, or throws a UserError saying what is wrong with it (exit 2). Only a
 * regular file of at most `maxBytes` is read: a FIFO would block the read for ever, a device
 * (/dev/zero) would fill the memory, a huge file cost minutes. The file is opened without waiting
 * (a FIFO with no writer opens at once) and checked on the open descriptor, so what is checked is
 * what is read. Here, on the ground floor, so every layer that reads a user's file uses it.
 */
export function readInputFile(path: string, { what, maxBytes, hint }: InputFile): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new UserError(`cannot read ${what} ${path}: ${why(error)}`, { hint });
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UserError(`${what} ${path} is not a regular file (a directory, a FIFO, a device or a socket)`, { hint });
    if (info.size > maxBytes) throw new UserError(`${what} ${path} is ${info.size} bytes, more than ${maxBytes} (${size(maxBytes)})`, { hint });
    return readFileSync(fd);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot read ${what} ${path}: ${why(error)}`, { hint });
  } finally {
    closeSync(fd);
  }
}
