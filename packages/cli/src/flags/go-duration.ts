/**
 * Go's duration syntax (`time.ParseDuration`), which BLIS's `--saturation-final-window` takes:
 * a sign, then one or more `<decimal><unit>` (`1h30m`, `1.5s`, `250ms`, `10us`), units ns, us
 * (µs, μs), ms, s, m, h; a bare `0` is zero. Returns nanoseconds, or undefined when the text is
 * not a duration or passes Go's int64 range.
 */
const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_NS = (1n << 63n) - 1n;
const PART = /^(\d*)(?:\.(\d*))?([^\d.]+)/;

export function goDurationNs(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  while (s !== '') {
    const m = PART.exec(s);
    if (m === null) return undefined;
    const [whole, int, frac, unitText] = m;
    if (int === '' && (frac === undefined || frac === '')) return undefined;
    const unit = UNIT_NS[unitText];
    if (unit === undefined) return undefined;
    total += BigInt(int === '' ? '0' : int) * unit;
    if (frac !== undefined && frac !== '') {
      // As Go: the fraction scaled in floating point and truncated (no more digits than an int64 holds).
      const digits = frac.slice(0, 18);
      total += BigInt(Math.trunc(Number(digits) * (Number(unit) / 10 ** digits.length)));
    }
    if (total > MAX_NS) return undefined;
    s = s.slice(whole.length);
  }
  return negative ? -total : total;
}

/** A duration's whole microseconds, truncated toward zero (Go's `Duration.Microseconds`). */
export function nsToWholeUs(ns: bigint): number {
  return Number(ns / 1000n);
}
