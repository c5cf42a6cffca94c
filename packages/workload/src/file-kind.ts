/** The parts of a `fs.Stats` that say what a path is. */
export interface FileTypeStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/**
 * What a path is when it is not a regular file, in a message's words (`a named pipe (FIFO)`,
 * `a character device`, ...); undefined for a regular file. An input read whole must be a
 * regular file: /dev/zero never ends, and opening a FIFO waits for a writer.
 */
export function nonRegularFileKind(st: FileTypeStats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}
