import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TraceReadError, openAzureTrace } from '@blis/workload';
import { AzureTimestampReader, azureTimestampUs } from '../src/traces/azure-timestamp.js';
import { intField, intFieldAt } from '../src/traces/line-reader.js';
import { drain } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** The straightforward reading: one regex match and one Date per timestamp. */
function referenceUs(ts: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(ts.trim());
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = [+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  if (mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return (date.getTime() / 1000) * 1_000_000 + Number((m[7] ?? '').padEnd(6, '0').slice(0, 6));
}

const pad = (v: number, n: number) => String(v).padStart(n, '0');

/** Timestamps near the format: mostly well formed, on a few dates, some out of range or garbled. */
const timestampArb = fc
  .record({
    date: fc.oneof(
      { arbitrary: fc.constantFrom('2023-11-16', '2023-11-17', '2023-12-16', '2024-02-29', '2023-02-29', '0099-12-31'), weight: 3 },
      { arbitrary: fc.tuple(fc.nat(9999), fc.nat(14), fc.nat(32)).map(([y, mo, d]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`), weight: 1 },
    ),
    sep: fc.constantFrom(' ', ' ', ' ', 'T', 't', '-'),
    time: fc.tuple(fc.nat(25), fc.nat(61), fc.nat(61)).map(([h, mi, s]) => `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`),
    frac: fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,9}$/), fc.stringMatching(/^\.[0-9]{0,11}$/)),
    garble: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: fc.tuple(fc.nat(30), fc.constantFrom('x', '/', ' ', '١', '', ':', '.', '0')), weight: 1 }),
  })
  .map(({ date, sep, time, frac, garble }) => {
    const s = `${date}${sep}${time}${frac}`;
    return garble === null ? s : s.slice(0, garble[0]) + garble[1] + s.slice(garble[0] + 1);
  });

describe('Azure timestamps', () => {
  it('one reader over a sequence reads what a regex and a Date per row read', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(timestampArb, fc.constantFrom('', ' ', '\t')), { maxLength: 30 }), (stamps) => {
        const reader = new AzureTimestampReader();
        for (const [ts, padding] of stamps) {
          const want = referenceUs(ts);
          expect(azureTimestampUs(`${padding}${ts}${padding}`)).toBe(want);
          // In place within a longer line, as the trace reader calls it; it reads a field with
          // whitespace around it through azureTimestampUs.
          expect(reader.read(`${ts},4808,10`, 0, ts.length)).toBe(ts.trim() === ts ? want : undefined);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('hand examples: fractions, leap days, small years, the remembered date', () => {
    const day = Date.UTC(2023, 10, 16) * 1000;
    const r = new AzureTimestampReader();
    expect(r.read('2023-11-16 00:00:01.5')).toBe(day + 1_500_000);
    // Same date, another time: 18 h 17 min 3 s, 979960 µs (the seventh digit floored away).
    expect(r.read('2023-11-16T18:17:03.9799609')).toBe(day + 65_823_979_960);
    expect(r.read('2023-11-16 18:17:03.123456789')).toBe(day + 65_823_123_456);
    expect(r.read('2023-11-16 18:17:03.1234567891')).toBeUndefined();
    expect(r.read('2023-11-16 18:17:03.')).toBeUndefined();
    expect(r.read('2023-11-16 24:00:00')).toBeUndefined();
    expect(r.read('2023-11-16 23:60:00')).toBeUndefined();
    // The remembered date does not let a bad time through, nor a bad date in.
    expect(r.read('2023-11-16 23:59:60')).toBeUndefined();
    expect(r.read('2023-02-29 00:00:00')).toBeUndefined();
    expect(r.read('2024-02-29 00:00:00')).toBe(Date.UTC(2024, 1, 29) * 1000);
    expect(r.read('2023-11-16 00:00:00')).toBe(day);
    // Year 99 is 99, not 1999 (Date.UTC's reading).
    expect(r.read('0099-01-01 00:00:00')).toBe(-59_042_995_200_000_000);
    // Within a line: only the span is read.
    expect(r.read('x2023-11-16 00:00:02,5', 1, 20)).toBe(day + 2_000_000);
  });
});

describe('intFieldAt', () => {
  const outcome = (f: () => number) => {
    try {
      return { value: f() };
    } catch (e) {
      expect(e).toBeInstanceOf(TraceReadError);
      return { issue: (e as TraceReadError).issues[0] };
    }
  };

  it('reads a field in place as intField reads it sliced: the value, or the same error', () => {
    const fieldArb = fc.oneof(
      fc.stringMatching(/^[0-9]{1,18}$/),
      fc.stringMatching(/^[ +\-0-9.ex]{0,8}$/),
      fc.nat().map(String),
    );
    fc.assert(
      fc.property(fieldArb, fc.nat(20), fc.integer({ min: 0, max: 2 ** 53 }), (field, min, span) => {
        const max = Math.min(Number.MAX_SAFE_INTEGER, min + span);
        const line = `a,${field},b`;
        const at = outcome(() => intFieldAt(line, 2, 2 + field.length, 'f.csv', 7, 'ContextTokens', min, max));
        expect(at).toEqual(outcome(() => intField(field, 'f.csv', 7, 'ContextTokens', min, max)));
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('hand examples', () => {
    expect(intFieldAt('x,0042,y', 2, 6, 'f', 1, 'n')).toBe(42);
    expect(intFieldAt('x,12.0,y', 2, 6, 'f', 1, 'n')).toBe(12);
    expect(() => intFieldAt('x,0,y', 2, 3, 'f', 1, 'n', 1, 5)).toThrow(/an integer from 1 to 5/);
    expect(() => intFieldAt('x,,y', 2, 2, 'f', 1, 'n')).toThrow(/a non-negative integer/);
  });
});

describe('Azure rows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blis-azure-rows-'));
  const header = 'TIMESTAMP,ContextTokens,GeneratedTokens\n';
  const issueOf = (body: string) => {
    const path = join(dir, 'rows.csv');
    writeFileSync(path, header + body);
    try {
      drain(openAzureTrace(path));
    } catch (e) {
      return (e as TraceReadError).issues[0];
    }
    return undefined;
  };

  it('columns counted as a split counts them', () => {
    expect(issueOf('2023-11-16 18:17:03,5\n')).toMatchObject({ line: 2, expected: '3 columns', found: '2' });
    expect(issueOf('2023-11-16 18:17:03\n')).toMatchObject({ line: 2, expected: '3 columns', found: '1' });
    expect(issueOf('2023-11-16 18:17:03,5,6,\n')).toMatchObject({ line: 2, expected: '3 columns', found: '4' });
    expect(issueOf(',,\n')).toMatchObject({ line: 2, field: 'TIMESTAMP', found: '""' });
  });

  it('padded fields are read as before; bad ones named', () => {
    const path = join(dir, 'padded.csv');
    writeFileSync(path, `${header} 2023-11-16 18:17:03.5 , 16 ,+3\n2023-11-16 18:17:04,32,0\n`);
    const reqs = drain(openAzureTrace(path));
    expect(reqs.map((r) => [r.arrivalUs, r.inputTokens, r.outputTokens])).toEqual([
      [0, 16, 3],
      [500_000, 32, 0],
    ]);
    expect(issueOf('2023-11-16 18:17:03,5,-1\n')).toMatchObject({ line: 2, field: 'GeneratedTokens', found: '"-1"' });
    expect(issueOf('2023-11-16 18:17:03,0,1\n')).toMatchObject({ line: 2, field: 'ContextTokens', expected: 'an integer from 1 to 16777216' });
    expect(issueOf('2023-11-16 18:17:03,1,1\n2023-13-16 18:17:03,1,1\n')).toMatchObject({ line: 3, field: 'TIMESTAMP', found: '"2023-13-16 18:17:03"' });
  });
});
