/**
 * A float64 as yaml.v3 writes it (`strconv.FormatFloat(f, 'g', -1, 64)`, then `.inf`/`.nan`):
 * the shortest digits that read back, in exponent form (`1e+06`, `1.5e-05`, two exponent digits
 * at least) when the exponent is below −4 or at least 6, else plain (`0.0001`, `123456.7`).
 */
export function goFloatText(x: number): string {
  if (Number.isNaN(x)) return '.nan';
  if (x === Number.POSITIVE_INFINITY) return '.inf';
  if (x === Number.NEGATIVE_INFINITY) return '-.inf';
  // Go keeps the sign of a negative zero; JS's String(-0) drops it.
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // JS's shortest round-trip digits are Go's shortest digits; only the layout differs.
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  // In this range JS writes no exponent either (it switches only below 1e-6 and from 1e21).
  return String(x);
}
