/**
 * A value as Go's yaml.v3 marshals it: what kind of Go value it was decides how it is written
 * (a float64 `1e+06`, an int `1000000`), and a struct's fields keep their declared order.
 */
export type GoYamlNode =
  | { kind: 'map'; entries: [string, GoYamlNode][] }
  | { kind: 'seq'; items: GoYamlNode[] }
  | { kind: 'str'; value: string }
  | { kind: 'float'; value: number }
  | { kind: 'int'; value: number }
  | { kind: 'bool'; value: boolean };

/**
 * A float64 as yaml.v3 writes it (`strconv.FormatFloat(f, 'g', -1, 64)`): the shortest digits
 * that read back, in exponent form (`1e+06`, `1.5e-05`, two exponent digits at least) when the
 * exponent is below −4 or at least 6, else plain (`0.0001`, `123456.7`).
 */
export function goFloatText(x: number): string {
  if (Number.isNaN(x)) return '.nan';
  if (x === Number.POSITIVE_INFINITY) return '.inf';
  if (x === Number.NEGATIVE_INFINITY) return '-.inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(x);
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isLetter = (c: string) => /\p{L}/u.test(c);

/**
 * yaml.v3's order of map keys: letters before other characters, runs of digits compared as
 * numbers (`a2` before `a10`), otherwise by code point; a prefix first.
 */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]);
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

/** `entries` sorted as yaml.v3 sorts a Go map's keys. */
export function goSortedEntries<T>(entries: [string, T][]): [string, T][] {
  return [...entries].sort(([a], [b]) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
}
