import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import { TraceReadError, createRequestSource, openTraceV2, openTraceV2Text, parseWorkloadSpec, writeTraceV2 } from '@blis/workload';
import { TRACEV2_COLUMNS, TextLines } from '@blis/workload/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drain, specArb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'blis-tracev2-text-'));

const fields = (r: RequestSpec) => {
  const { blockHashes, ...rest } = r;
  return { ...rest, blockHashes: Array.from(blockHashes) };
};

describe('TextLines', () => {
  it('numbers lines from 1, drops \\r before \\n, and has no line after a final newline', () => {
    const lines = new TextLines('a,b\r\n\nc');
    expect([lines.next(), lines.lineNumber, lines.next(), lines.next(), lines.lineNumber, lines.next()]).toEqual(['a,b', 1, '', 'c', 3, undefined]);
    const ended = new TextLines('x\n');
    expect([ended.next(), ended.next()]).toEqual(['x', undefined]);
    expect(new TextLines('').next()).toBeUndefined();
  });
});

describe('openTraceV2Text', () => {
  it('reads a pair held as text exactly as openTraceV2 reads the files (fast-check)', () => {
    let n = 0;
    fc.assert(
      fc.property(specArb(), (raw) => {
        const stem = join(dir, `t-${n++}`);
        writeTraceV2(createRequestSource(parseWorkloadSpec(raw)), `${stem}.yaml`, `${stem}.csv`);
        const pair = { header: readFileSync(`${stem}.yaml`, 'utf8'), headerName: 'h.yaml', data: readFileSync(`${stem}.csv`, 'utf8'), dataName: 'd.csv' };
        expect(drain(openTraceV2Text(pair, { maxRequests: 50 })).map(fields)).toEqual(drain(openTraceV2(`${stem}.yaml`, { maxRequests: 50 })).map(fields));
      }),
      { numRuns: propertyRuns(30) },
    );
  });

  it('names the uploaded file, the line and the field in errors', () => {
    const row = ['r', 'c', '', '', '', 0, '', 0, 'maybe', 100, 7, 100, 0, 0, 0, 0, '', 0, 0, 10, 10, 0, 0, 0, 'ok', '', ''].join(',');
    const issue = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(TraceReadError);
        return (e as TraceReadError).issues[0];
      }
      throw new Error('expected a TraceReadError');
    };
    const data = `${TRACEV2_COLUMNS.join(',')}\n${row}\n`;
    expect(issue(() => drain(openTraceV2Text({ header: 'trace_version: 2\n', headerName: 'h.yaml', data, dataName: 'up.csv' })))).toEqual({
      file: 'up.csv',
      line: 2,
      field: 'streaming',
      expected: 'true or false',
      found: '"maybe"',
    });
    expect(issue(() => openTraceV2Text({ header: 'trace_version: 2\ntime_unit: fortnights\n', headerName: 'h.yaml', data, dataName: 'up.csv' }))).toMatchObject({
      file: 'h.yaml',
      line: 2,
      field: 'time_unit',
    });
  });
});
