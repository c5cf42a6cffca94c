import { describe, expect, it } from 'vitest';
import { type GoYamlNode, goFloatMap, goFloatText, goInt, goSeq, goStr, goStruct, goYamlDocument, goYamlKeyLess, goYamlString } from '../src/go-yaml/index.js';

// The one Go yaml.v3 writer `blis convert` and `blis compose` share, against what yaml.v3's
// Marshal prints (strconv.FormatFloat(f, 'g', -1, 64), its sorter.go key order, resolve.go and
// libyaml's scalar analysis, emitterc.go's indentation). Cases marked "yaml.v3:" are where the
// two earlier writers disagreed; the expectation is what gopkg.in/yaml.v3's source does.

describe("Go's shortest 'g' float text, as yaml.v3 prints a float64", () => {
  it.each([
    [1, '1'],
    [0.25, '0.25'],
    [123456, '123456'],
    [999999, '999999'],
    [123456.7, '123456.7'],
    [1e6, '1e+06'],
    [1.2e7, '1.2e+07'],
    [1234567.5, '1.2345675e+06'],
    [14852767.983948065, '1.4852767983948065e+07'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [0.00003, '3e-05'],
    [9.999995000002501e-6, '9.999995000002501e-06'],
    [3.8333333333333335, '3.8333333333333335'],
    [-2.5, '-2.5'],
    [-2.5e-7, '-2.5e-07'],
    [1e21, '1e+21'],
    [1.5e300, '1.5e+300'],
    [1e-300, '1e-300'],
    [0, '0'],
    [-0, '-0'],
    [Number.POSITIVE_INFINITY, '.inf'],
    [Number.NEGATIVE_INFINITY, '-.inf'],
    [Number.NaN, '.nan'],
  ])('%d -> %s', (f, text) => expect(goFloatText(f)).toBe(text));
});

describe("yaml.v3's document layout", () => {
  it('indents 4, a mapping in a sequence item 2 past the dash, then on to the next multiple of 4', () => {
    const doc = goStruct([
      ['version', goStr('2')],
      ['empty', goSeq([])],
      ['items', goSeq([goStruct([['id', goStr('a')], ['nested', goStruct([['params', goFloatMap({ std_dev: 1, mean: 2, max: 3, min: 0 })]])], ['list', goSeq([goStruct([['count', goInt(1)]])])]])])],
    ]);
    expect(goYamlDocument(doc)).toBe(
      'version: "2"\nempty: []\nitems:\n    - id: a\n      nested:\n        params:\n            max: 3\n            mean: 2\n            min: 0\n            std_dev: 1\n      list:\n        - count: 1\n',
    );
  });

  it('yaml.v3: a sequence in a sequence continues the dash line (`- - a`), its items 2 past the dash', () => {
    // emitterc.go increase_indent: inside a sequence item the indent only skips the "- ".
    expect(goYamlDocument(goStruct([['k', goSeq([goSeq([goStr('a'), goStr('b')]), goStr('c')])]]))).toBe('k:\n    - - a\n      - b\n    - c\n');
  });

  it('yaml.v3: a mapping under a key of a mapping in a nested sequence rounds up to the next multiple of 4', () => {
    const inner = goStruct([['m', goStruct([['x', goInt(1)]])]]);
    expect(goYamlDocument(goSeq([goSeq([inner])]))).toBe('- - m:\n        x: 1\n');
  });

  it('empty collections in flow style, in a mapping and in a sequence; a root sequence or scalar', () => {
    expect(goYamlDocument(goStruct([['m', goStruct([])], ['s', goSeq([goSeq([]), goStruct([])])]]))).toBe('m: {}\ns:\n    - []\n    - {}\n');
    expect(goYamlDocument(goSeq([goStr('a'), goStruct([['b', goInt(1)], ['c', goInt(2)]])]))).toBe('- a\n- b: 1\n  c: 2\n');
    expect(goYamlDocument(goStr('x'))).toBe('x\n');
  });

  it('sorts map keys with digit runs by value and quotes what would read back as another type', () => {
    const keys = (goFloatMap({ '10': 1, '9': 1, '100': 1, '0': 1 }) as Extract<GoYamlNode, { kind: 'map' }>).entries.map((e) => e[0]);
    expect(keys).toEqual(['0', '9', '10', '100']);
    const line = (s: string) => goYamlDocument(goStruct([['k', goStr(s)]]));
    expect(line('')).toBe('k: ""\n');
    expect(line('yes')).toBe('k: "yes"\n');
    expect(line('1.5')).toBe('k: "1.5"\n');
    expect(line('preset-chatbot')).toBe('k: preset-chatbot\n');
    expect(line('a: b')).toBe("k: 'a: b'\n");
  });
});

describe('yaml.v3 strings', () => {
  it('double quotes when YAML would read another type, single when plain text breaks', () => {
    expect(goYamlString('1')).toBe('"1"');
    expect(goYamlString('true')).toBe('"true"');
    expect(goYamlString('yes')).toBe('"yes"');
    expect(goYamlString('null')).toBe('"null"');
    expect(goYamlString('')).toBe('""');
    expect(goYamlString('1.5e3')).toBe('"1.5e3"');
    expect(goYamlString('1:20')).toBe('"1:20"');
    expect(goYamlString('.inf')).toBe('".inf"');
    expect(goYamlString('b: c')).toBe("'b: c'");
    expect(goYamlString('#x')).toBe("'#x'");
    expect(goYamlString('a#b')).toBe('a#b');
    expect(goYamlString('a #b')).toBe("'a #b'");
    expect(goYamlString("it's")).toBe("it's");
    expect(goYamlString("'q")).toBe("'''q'");
    expect(goYamlString('x:')).toBe("'x:'");
    expect(goYamlString('- x')).toBe("'- x'");
    expect(goYamlString(' lead')).toBe("' lead'");
    expect(goYamlString('tenant-A')).toBe('tenant-A');
    expect(goYamlString('Inf')).toBe('Inf');
  });

  it('yaml.v3: `<<` is in resolve.go\'s table but its first byte has no hint, so it stays plain', () => {
    expect(goYamlString('<<')).toBe('<<');
  });

  it('yaml.v3: integers as strconv.ParseInt(s, 0, 64) reads them, underscores removed first', () => {
    expect(goYamlString('0X1F')).toBe('"0X1F"');
    expect(goYamlString('0B101')).toBe('"0B101"');
    expect(goYamlString('+0x1f')).toBe('"+0x1f"');
    expect(goYamlString('0777')).toBe('"0777"');
    expect(goYamlString('1_000')).toBe('"1_000"');
    expect(goYamlString('1._5')).toBe('"1._5"');
    expect(goYamlString('0b-1')).toBe('"0b-1"');
    expect(goYamlString('_1')).toBe('_1');
    expect(goYamlString('0xg')).toBe('0xg');
  });

  it('yaml.v3: numbers strconv refuses as out of range resolve to strings and print plain', () => {
    expect(goYamlString('1e400')).toBe('1e400');
    expect(goYamlString('.5e400')).toBe('.5e400');
    expect(goYamlString('0x1_0000_0000_0000_0000')).toBe('0x1_0000_0000_0000_0000');
    // Past uint64 but still a float64, so still quoted.
    expect(goYamlString('99999999999999999999')).toBe('"99999999999999999999"');
    expect(goYamlString('18446744073709551615')).toBe('"18446744073709551615"');
  });

  it('yaml.v3: timestamps only when time.Parse takes the whole text', () => {
    expect(goYamlString('2024-01-02')).toBe('"2024-01-02"');
    expect(goYamlString('2024-1-2 3:04:05')).toBe('"2024-1-2 3:04:05"');
    expect(goYamlString('2024-01-02T10:00:00.5Z')).toBe('"2024-01-02T10:00:00.5Z"');
    expect(goYamlString('2024-01-02t10:00:00+02:00')).toBe('"2024-01-02t10:00:00+02:00"');
    expect(goYamlString('2024-01-02x')).toBe('2024-01-02x');
    expect(goYamlString('2024-01-02 foo')).toBe('2024-01-02 foo');
    expect(goYamlString('2024-01-02T10:00:00')).toBe('2024-01-02T10:00:00');
    expect(goYamlString('2024-13-01')).toBe('2024-13-01');
    expect(goYamlString('2023-02-29')).toBe('2023-02-29');
    expect(goYamlString('2024-02-29')).toBe('"2024-02-29"');
  });

  it("yaml.v3: unprintable characters double-quoted with libyaml's escapes, not JSON's", () => {
    expect(goYamlString('a\tb')).toBe('"a\\tb"');
    expect(goYamlString('\u001b[0m')).toBe('"\\e[0m"');
    expect(goYamlString('\u0000')).toBe('"\\0"');
    expect(goYamlString('del\u007f')).toBe('"del\\x7F"');
    expect(goYamlString('nel\u0085')).toBe('"nel\\N"');
    expect(goYamlString('bom\ufeff')).toBe('"bom\\uFEFF"');
    expect(goYamlString('a"b\u0001')).toBe('"a\\"b\\x01"');
    // libyaml's is_printable stops at U+FFFD: an emoji is escaped.
    expect(goYamlString('hi 😀')).toBe('"hi \\U0001F600"');
    expect(goYamlString('café 中')).toBe('café 中');
  });
});

describe("yaml.v3's map key order", () => {
  it('letters by code point, digit runs as numbers', () => {
    expect(goYamlKeyLess('max', 'mean')).toBe(true);
    expect(goYamlKeyLess('sigma', 'std_dev')).toBe(true);
    expect(goYamlKeyLess('a2', 'a10')).toBe(true);
    expect(goYamlKeyLess('a10', 'a2')).toBe(false);
    expect(goYamlKeyLess('min', 'mix_weight')).toBe(true);
  });

  it('yaml.v3: a letter is unicode.IsLetter (uncased letters too), compared by code point', () => {
    // `中` has no case but is a letter: letters sort after a digit that does not continue a digit run.
    expect(goYamlKeyLess('a1', 'a中')).toBe(true);
    expect(goYamlKeyLess('a中', 'a1')).toBe(false);
    // U+FB00 < U+1D400 by code point, though not by UTF-16 unit.
    expect(goYamlKeyLess('\ufb00', '\u{1d400}')).toBe(true);
  });
});
