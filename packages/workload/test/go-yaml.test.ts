import { describe, expect, it } from 'vitest';
import { goFloatMap, goFloatText, goInt, goSeq, goStr, goStruct, goYamlText } from '../src/convert/go-yaml.js';
import { readGoCsv } from '../src/servegen/go-csv.js';
import { goParseFloat } from '../src/servegen/go-parse.js';
import { parseRatioPdf, parseTokenPdf } from '../src/servegen/servegen-pdf.js';

// The Go formats `blis convert` reproduces, against what Go itself prints and reads
// (strconv.FormatFloat(f, 'g', -1, 64), yaml.v3's Marshal and key order, encoding/csv).

describe("Go's shortest 'g' float text, as yaml.v3 prints a float64", () => {
  it.each([
    [1, '1'],
    [0.25, '0.25'],
    [123456, '123456'],
    [1e6, '1e+06'],
    [1234567.5, '1.2345675e+06'],
    [14852767.983948065, '1.4852767983948065e+07'],
    [0.0001, '0.0001'],
    [0.00003, '3e-05'],
    [3.8333333333333335, '3.8333333333333335'],
    [-2.5e-7, '-2.5e-07'],
    [1e21, '1e+21'],
    [1.5e300, '1.5e+300'],
    [-0, '-0'],
    [Number.POSITIVE_INFINITY, '.inf'],
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
    expect(goYamlText(doc as Extract<ReturnType<typeof goStruct>, { kind: 'map' }>)).toBe(
      'version: "2"\nempty: []\nitems:\n    - id: a\n      nested:\n        params:\n            max: 3\n            mean: 2\n            min: 0\n            std_dev: 1\n      list:\n        - count: 1\n',
    );
  });

  it('sorts map keys with digit runs by value and quotes what would read back as another type', () => {
    const keys = (goFloatMap({ '10': 1, '9': 1, '100': 1, '0': 1 }) as unknown as { entries: [string, unknown][] }).entries.map((e) => e[0]);
    expect(keys).toEqual(['0', '9', '10', '100']);
    const line = (s: string) => goYamlText(goStruct([['k', goStr(s)]]) as Extract<ReturnType<typeof goStruct>, { kind: 'map' }>);
    expect(line('')).toBe('k: ""\n');
    expect(line('yes')).toBe('k: "yes"\n');
    expect(line('1.5')).toBe('k: "1.5"\n');
    expect(line('preset-chatbot')).toBe('k: preset-chatbot\n');
    expect(line('a: b')).toBe("k: 'a: b'\n");
  });
});

describe("Go's readers of ServeGen files", () => {
  it('strconv.ParseFloat: Go syntax in, the same value out; malformed text refused', () => {
    expect(goParseFloat('600.0')).toBe(600);
    expect(goParseFloat('1e-3')).toBe(0.001);
    expect(goParseFloat('Inf')).toBe(Number.POSITIVE_INFINITY);
    expect(goParseFloat('0x1p-2')).toBe(0.25);
    for (const bad of ['', ' 1', '1_000', '0x10', 'nan1', '1e400']) expect(goParseFloat(bad), bad).toBeUndefined();
  });

  it('encoding/csv: blank lines skipped, CRLF read as LF, quotes, and the first record fixes the field count', () => {
    expect(readGoCsv('a,b\r\n\r\n"x,""y""",z\n')).toEqual({ records: [['a', 'b'], ['x,"y"', 'z']] });
    expect(readGoCsv('a,b\nc\n')).toEqual({ error: 'record on line 2: wrong number of fields (1, the first record has 2)' });
    expect(readGoCsv('a,b"c\n')).toEqual({ error: 'parse error on line 1: bare " in non-quoted-field' });
  });

  it("ServeGen's Python dict PMFs: integer keys truncated, ratio keys in [0, 1]", () => {
    expect(parseTokenPdf('{100.0: 0.5, 200: 5e-1,}')).toEqual({ pdf: new Map([[100, 0.5], [200, 0.5]]) });
    expect(parseTokenPdf('{}')).toEqual({ error: 'an empty PDF dictionary' });
    expect(parseRatioPdf('{"0.5": 0.2, "1.5": 0.8}')).toEqual({ error: 'a reason_ratio key 1.5 outside [0, 1]' });
  });
});
