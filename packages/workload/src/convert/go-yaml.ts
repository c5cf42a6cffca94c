// A YAML writer that prints what Go's gopkg.in/yaml.v3 Marshal prints for the values BLIS's
// `convert` commands write (mappings of structs, sequences, strings, integers, floats, booleans),
// so that our converted specs equal BLIS's byte for byte. yaml.v3 indents 4 spaces, except that
// a mapping inside a sequence item starts 2 columns in (after "- ") and its nested blocks round
// up to the next multiple of 4 from there; empty sequences print as `[]`; floats print as Go's
// strconv.FormatFloat(f, 'g', -1, 64).

/** A YAML value as BLIS's structs give it: the scalar's Go type decides how it prints. */
export type GoYamlNode =
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, GoYamlNode])[] }
  | { readonly kind: 'seq'; readonly items: readonly GoYamlNode[] }
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean };

export const goStr = (value: string): GoYamlNode => ({ kind: 'str', value });
export const goInt = (value: number): GoYamlNode => ({ kind: 'int', value });
export const goFloat = (value: number): GoYamlNode => ({ kind: 'float', value });
export const goBool = (value: boolean): GoYamlNode => ({ kind: 'bool', value });
export const goSeq = (items: readonly GoYamlNode[]): GoYamlNode => ({ kind: 'seq', items });
/** A struct: fields in declaration order, an absent (`omitempty`) field left out by the caller. */
export const goStruct = (entries: readonly (readonly [string, GoYamlNode | undefined])[]): GoYamlNode => ({
  kind: 'map',
  entries: entries.filter((e): e is readonly [string, GoYamlNode] => e[1] !== undefined),
});

/** A Go map[string]float64: yaml.v3 sorts its keys (digit runs by value, letters before other characters). */
export function goFloatMap(values: Readonly<Record<string, number>>): GoYamlNode {
  const keys = Object.keys(values).sort((a, b) => (goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0));
  return { kind: 'map', entries: keys.map((k) => [k, goFloat(values[k])] as const) };
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isLetter = (c: string): boolean => c.toLowerCase() !== c.toUpperCase();

/** yaml.v3's order of string map keys (its sorter.go), for the keys BLIS writes. */
function goKeyLess(a: string, b: string): boolean {
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

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as yaml.v3 prints a float64 (with its .inf and .nan). */
export function goFloatText(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (f === Number.POSITIVE_INFINITY) return '.inf';
  if (f === Number.NEGATIVE_INFINITY) return '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // JS's exponential form carries the shortest digits that round-trip, as Go's shortest mode does.
  const [mant, expText] = Math.abs(f).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  const sign = f < 0 ? '-' : '';
  // Shortest 'g' takes the exponent form for a decimal exponent below -4 or from 6 on.
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${whole}${frac !== '' ? `.${frac}` : ''}`;
}

const NON_STRING_PLAIN = new Set([
  '', '~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '<<',
  // YAML 1.1 booleans, which yaml.v3 quotes so that older readers keep them strings.
  'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF',
  '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN',
]);
const NUMBER_LIKE = [
  /^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/,
  /^[-+]?0[xX][0-9a-fA-F_]+$/,
  /^[-+]?0[oO][0-7_]+$/,
  /^[-+]?0[bB][01_]+$/,
  // Base-60 numbers and timestamps, which a YAML 1.1 reader would not read back as strings.
  /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/,
];

/** Whether a plain scalar would be read back as something other than this string. */
function readsAsNonString(s: string): boolean {
  return NON_STRING_PLAIN.has(s) || NUMBER_LIKE.some((re) => re.test(s));
}

/** Control characters, which only a double-quoted scalar can hold (escaped). */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Whether libyaml's analysis allows the string as a plain scalar in block context. */
function plainAllowed(s: string): boolean {
  if (/^\s|\s$/.test(s) || s.startsWith('---') || s.startsWith('...')) return false;
  if (/^[,[\]{}#&*!|>'"%@`]/.test(s)) return false;
  if (/^[-?:](\s|$)/.test(s)) return false;
  return !s.includes(': ') && !s.includes(' #') && !s.endsWith(':');
}

function strText(s: string): string {
  if (readsAsNonString(s) || hasControl(s)) return JSON.stringify(s);
  if (plainAllowed(s)) return s;
  return `'${s.replaceAll("'", "''")}'`;
}

function scalarText(n: Exclude<GoYamlNode, { kind: 'map' | 'seq' }>): string {
  switch (n.kind) {
    case 'str':
      return strText(n.value);
    case 'int':
      return String(n.value);
    case 'float':
      return goFloatText(n.value);
    case 'bool':
      return n.value ? 'true' : 'false';
  }
}

/** yaml.v3's indent for a block nested in one at `indent`: the next multiple of 4. */
const nested = (indent: number): number => 4 * Math.floor((indent + 4) / 4);

/** The text after a key's colon (or a sequence dash) for `value`, whose block is at `indent`. */
function valueText(value: GoYamlNode, indent: number, inSequenceItem: boolean): string {
  if (value.kind === 'map') {
    if (value.entries.length === 0) return ' {}';
    return inSequenceItem ? ` ${mappingText(value, indent, true)}` : mappingText(value, indent, false);
  }
  if (value.kind === 'seq') {
    if (value.items.length === 0) return ' []';
    return value.items.map((item) => `\n${' '.repeat(indent)}-${valueText(item, indent + 2, true)}`).join('');
  }
  return ` ${scalarText(value)}`;
}

/** A block mapping at `indent`; `inline`: its first key follows a sequence dash on the same line. */
function mappingText(map: Extract<GoYamlNode, { kind: 'map' }>, indent: number, inline: boolean): string {
  return map.entries
    .map(([key, value], i) => {
      const lead = i === 0 && inline ? '' : `\n${' '.repeat(indent)}`;
      const child = value.kind === 'map' || value.kind === 'seq' ? nested(indent) : indent;
      return `${lead}${strText(key)}:${valueText(value, child, false)}`;
    })
    .join('');
}

/** The document yaml.v3's Marshal prints for `root`, a struct. */
export function goYamlText(root: Extract<GoYamlNode, { kind: 'map' }>): string {
  return `${mappingText(root, 0, false).replace(/^\n/, '')}\n`;
}
