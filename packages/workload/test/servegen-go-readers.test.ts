import { describe, expect, it } from 'vitest';
import { readGoCsv } from '../src/servegen/go-csv.js';
import { goParseFloat } from '../src/servegen/go-parse.js';
import { parseRatioPdf, parseTokenPdf } from '../src/servegen/servegen-pdf.js';

// The Go readers `blis convert servegen` reproduces, against what Go itself reads
// (strconv.ParseFloat, encoding/csv) and ServeGen's Python dict PMFs.

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
