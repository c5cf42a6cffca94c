// yaml.v3's order of string map keys (keyList.Less in its sorter.go), rune by rune as Go's
// unicode.IsLetter / unicode.IsDigit see them: a letter is any Unicode letter (category L, so
// uncased ones like `中` too), a digit any decimal digit (Nd), and runes compare by code point.

const isDigit = (c: string): boolean => /\p{Nd}/u.test(c);
const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const code = (c: string): number => c.codePointAt(0) ?? 0;

/**
 * Whether key `a` sorts before `b`: letters before other characters, runs of digits compared
 * as numbers (`a2` before `a10`), otherwise by code point; a prefix first.
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
    if (al && bl) return code(ar[i]) < code(br[i]);
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
    // Go adds `rune - '0'`, whatever script the digit is from.
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + code(ar[ai]) - 48;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + code(br[bi]) - 48;
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return code(ar[i]) < code(br[i]);
  }
  return ar.length < br.length;
}

/** `entries` sorted as yaml.v3 sorts a Go map's keys. */
export function goSortedEntries<T>(entries: readonly (readonly [string, T])[]): [string, T][] {
  return entries.map(([k, v]): [string, T] => [k, v]).sort(([a], [b]) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
}
