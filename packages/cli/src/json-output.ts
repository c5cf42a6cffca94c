/**
 * Serialises a result for stdout: two-space indentation and keys in insertion order, which the
 * builders fix, so equal inputs print byte-identical text. Non-finite numbers become null.
 */
export function stringifyResult(value: unknown): string {
  return `${JSON.stringify(value, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}
