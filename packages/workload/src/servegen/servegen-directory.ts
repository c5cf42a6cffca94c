import { directoryNames, join } from '#host-files';
import { readBoundedText } from '../bounded-text-file.js';
import type { ServeGenFiles } from './servegen-files.js';

/** A ServeGen file is a day or two weeks of one chunk: a few MB; refused unread past this. */
export const MAX_SERVEGEN_FILE_BYTES = 256 * 1024 * 1024;

/**
 * A ServeGen data directory on disk: its trace files (chunk-<id>-trace.csv) in Go's byte order,
 * each file read on demand and once. Throws the file system's error when the directory cannot be
 * listed (the caller words it).
 */
export function servegenDirectory(dir: string): ServeGenFiles {
  const names = directoryNames(dir);
  const traceFiles = names.filter((n) => /^chunk-.*-trace\.csv$/.test(n)).sort(byteOrder);
  const cache = new Map<string, { text: string } | { error: string }>();
  return {
    dir,
    traceFiles,
    read(name) {
      let got = cache.get(name);
      if (got === undefined) {
        const r = readBoundedText(join(dir, name), { maxBytes: MAX_SERVEGEN_FILE_BYTES, what: 'ServeGen file' });
        got = r.ok ? { text: r.text } : { error: r.issue.expected.startsWith('a readable') ? r.issue.found : `${r.issue.found}, not ${r.issue.expected}` };
        cache.set(name, got);
      }
      return got;
    },
  };
}

/** Go's sort.Strings: by UTF-8 bytes (differs from UTF-16 order past the BMP). */
function byteOrder(a: string, b: string): number {
  const enc = new TextEncoder();
  const x = enc.encode(a);
  const y = enc.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
