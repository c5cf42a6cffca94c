/**
 * The numeric id calibrate pairs on: BLIS's results name requests `request_<N>`, TraceV2 rows and
 * our own replay results carry `<N>`. Undefined when the text is neither.
 */
export function numericRequestId(raw: string | number): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? raw : undefined;
  const m = /^(?:request_)?(\d+)$/.exec(raw.trim());
  if (m === null) return undefined;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : undefined;
}
