/**
 * Serialises a result for stdout: two-space indentation and keys in insertion order, which the
 * builders fix, so equal inputs print byte-identical text. Non-finite numbers become null, as
 * JSON.stringify writes them without being asked: no replacer, which would cost a call per value
 * (a results file holds every request).
 */
export function stringifyResult(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
