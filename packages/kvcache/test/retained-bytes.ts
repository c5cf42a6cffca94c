/**
 * Roughly the bytes of data reachable from `root` through its fields (private ones included):
 * typed arrays by their buffers' sizes (each buffer once), 8 bytes per element of arrays, sets
 * and maps. Functions are not followed. Enough to tell a structure sized by its block count from
 * one that is not.
 */
export function retainedBytes(root: unknown): number {
  const seen = new Set<object>();
  let bytes = 0;
  const visit = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    if (ArrayBuffer.isView(v)) {
      if (!seen.has(v.buffer)) {
        seen.add(v.buffer);
        bytes += v.buffer.byteLength;
      }
      return;
    }
    seen.add(v);
    if (v instanceof Set) {
      bytes += 8 * v.size;
      for (const x of v) visit(x);
    } else if (v instanceof Map) {
      bytes += 16 * v.size;
      for (const [k, x] of v) {
        visit(k);
        visit(x);
      }
    } else {
      if (Array.isArray(v)) bytes += 8 * v.length;
      for (const x of Object.values(v)) visit(x);
    }
  };
  visit(root);
  return bytes;
}
