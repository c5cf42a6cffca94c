import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import {
  TraceReadError,
  createRequestSource,
  detectTraceFormat,
  openAzureTrace,
  openMooncakeTrace,
  openTrace,
  openTraceV2,
  parseWorkloadSpec,
  writeTraceV2,
} from '@blis/workload';
import { TRACEV2_COLUMNS, azureTimestampUs, mooncakeBlockHashes } from '@blis/workload/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drain, specArb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const FIX = join(import.meta.dirname, 'fixtures');
const AZURE = join(FIX, 'azure-code-300.csv');
const MOONCAKE = join(FIX, 'mooncake-synthetic-300.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'blis-traces-'));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The issue of the TraceReadError `f` throws (failing if it does not throw one). */
function traceIssue(f: () => unknown) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TraceReadError);
    return (e as TraceReadError).issues[0];
  }
  throw new Error('expected a TraceReadError');
}

const sharedBlocks = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

describe('Azure LLM inference trace', () => {
  const rows = readFileSync(AZURE, 'utf8').split('\r\n').slice(1, -1).map((l) => l.split(','));

  it('parses timestamps with 7 fractional digits to whole µs, exactly', () => {
    expect(azureTimestampUs('2023-11-16 18:17:03.9799600')).toBe(Date.UTC(2023, 10, 16, 18, 17, 3) * 1000 + 979_960);
    expect(azureTimestampUs('2023-11-16 18:17:03')).toBe(Date.UTC(2023, 10, 16, 18, 17, 3) * 1000);
    expect(azureTimestampUs('2023-11-16 18:17:03.1234567')! % 1_000_000).toBe(123_456);
    expect(azureTimestampUs('yesterday')).toBeUndefined();
  });

  it('streams the fixture (CRLF) with times relative to the first row and the CSV lengths', () => {
    const reqs = drain(openAzureTrace(AZURE));
    expect(reqs).toHaveLength(300);
    expect(rows).toHaveLength(300);
    // Rows 1-3 by hand: 18:17:03.97996, 18:17:04.03196, 18:17:04.078149.
    expect(reqs.slice(0, 3).map((r) => r.arrivalUs)).toEqual([0, 52_000, 98_189]);
    reqs.forEach((r, i) => {
      expect(r.index).toBe(i);
      expect(r.inputTokens).toBe(Number(rows[i][1]));
      expect(r.outputTokens).toBe(Number(rows[i][2]));
    });
    // No sharing in this trace: distinct requests have distinct first blocks (two rows of 14
    // tokens have no full block at all).
    const withBlocks = reqs.filter((r) => r.inputTokens >= 16);
    expect(withBlocks).toHaveLength(298);
    expect(new Set(withBlocks.map((r) => r.blockHashes[0])).size).toBe(298);
  });

  it('truncated line, bad number, bad timestamp, time going backwards, wrong header', () => {
    const good = '2023-11-16 18:17:03.9799600,4808,10\r\n';
    const header = 'TIMESTAMP,ContextTokens,GeneratedTokens\r\n';
    const truncated = write('az-trunc.csv', `${header}${good}2023-11-16 18:17:04.03,31`);
    expect(traceIssue(() => drain(openAzureTrace(truncated)))).toEqual({ file: truncated, line: 3, expected: '3 columns', found: '2' });
    const badNum = write('az-num.csv', `${header}${good}2023-11-16 18:17:04.0319600,lots,8\r\n`);
    expect(traceIssue(() => drain(openAzureTrace(badNum)))).toEqual({ file: badNum, line: 3, field: 'ContextTokens', expected: 'an integer from 1 to 16777216', found: '"lots"' });
    const badTs = write('az-ts.csv', `${header}${good}16/11/2023 18:17,5,8\r\n`);
    expect(traceIssue(() => drain(openAzureTrace(badTs)))).toMatchObject({ file: badTs, line: 3, field: 'TIMESTAMP', found: '"16/11/2023 18:17"' });
    const backwards = write('az-back.csv', `${header}${good}2023-11-16 18:17:05.0000000,5,8\r\n2023-11-16 18:17:04.5000000,5,8\r\n`);
    expect(traceIssue(() => drain(openAzureTrace(backwards)))).toEqual({
      file: backwards,
      line: 4,
      field: 'TIMESTAMP',
      expected: "a time at or after the previous row's (1020040 µs after the start)",
      found: '520040 µs (timestamps must not decrease)',
    });
    const noHeader = write('az-nohdr.csv', good);
    expect(traceIssue(() => openAzureTrace(noHeader))).toMatchObject({ file: noHeader, line: 1, expected: 'an Azure trace CSV, whose header is TIMESTAMP,ContextTokens,GeneratedTokens' });
  });
});

describe('Mooncake JSONL trace', () => {
  const rows = readFileSync(MOONCAKE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { timestamp: number; input_length: number; output_length: number; hash_ids: number[] });

  it('streams the fixture: ms timestamps to µs, lengths as given', () => {
    const reqs = drain(openMooncakeTrace(MOONCAKE));
    expect(reqs).toHaveLength(300);
    reqs.forEach((r, i) => {
      expect(r.arrivalUs).toBe(rows[i].timestamp * 1000);
      expect(r.inputTokens).toBe(rows[i].input_length);
      expect(r.outputTokens).toBe(rows[i].output_length);
      expect(r.blockHashes.length).toBe(Math.floor(rows[i].input_length / 16));
    });
  });

  it.each([16, 48, 512, 1000])('re-blocking to %i tokens: requests sharing k leading ids share exactly the blocks inside them', (bs) => {
    const reqs = drain(openMooncakeTrace(MOONCAKE, { blockSizeTokens: bs }));
    let pairsWithSharing = 0;
    for (let i = 0; i < rows.length; i++) {
      for (let j = i + 1; j < rows.length; j++) {
        const a = rows[i].hash_ids;
        const b = rows[j].hash_ids;
        const k = sharedBlocks(a, b);
        if (k === 0) {
          expect(sharedBlocks(reqs[i].blockHashes, reqs[j].blockHashes)).toBe(0);
          continue;
        }
        // Only when both go on with different ids is the boundary sharp.
        if (k >= a.length || k >= b.length) continue;
        pairsWithSharing++;
        const expected = Math.min(Math.floor((k * 512) / bs), reqs[i].blockHashes.length, reqs[j].blockHashes.length);
        expect(sharedBlocks(reqs[i].blockHashes, reqs[j].blockHashes), `rows ${i + 1} and ${j + 1}, ${k} ids`).toBe(expected);
      }
    }
    expect(pairsWithSharing).toBeGreaterThan(10);
  });

  it('re-blocking by hand: equal ids share, a trailing partial id is kept, unlisted tokens are private', () => {
    // 1100 tokens = ids [7, 8, 9] (the last covers 76 tokens). Block size 256: 4 full blocks.
    const a = mooncakeBlockHashes([7, 8, 9], 1100, 256, 'a');
    const b = mooncakeBlockHashes([7, 8, 5], 1100, 256, 'b');
    const c = mooncakeBlockHashes([7, 8, 9], 1100, 256, 'c');
    expect(a).toHaveLength(4);
    expect(sharedBlocks(a, b)).toBe(4);
    expect(Array.from(c)).toEqual(Array.from(a));
    // Ids listed for only 2 of 3 source blocks: the third block's tokens are the request's own.
    expect(sharedBlocks(mooncakeBlockHashes([7, 8], 1536, 256, 'x'), mooncakeBlockHashes([7, 8], 1536, 256, 'y'))).toBe(4);
    // Block size 384 does not divide 512: block 1 (tokens 384-767) straddles ids 7 and 8.
    expect(sharedBlocks(mooncakeBlockHashes([7, 8, 1], 1536, 384, 'p'), mooncakeBlockHashes([7, 3, 1], 1536, 384, 'q'))).toBe(1);
  });

  it('truncated line, wrong field, time going backwards', () => {
    const good = '{"timestamp": 0, "input_length": 100, "output_length": 5, "hash_ids": [1]}\n';
    const truncated = write('mc-trunc.jsonl', `${good}{"timestamp": 5, "input_len`);
    expect(traceIssue(() => drain(openMooncakeTrace(truncated)))).toEqual({ file: truncated, line: 2, expected: 'a Mooncake trace, one JSON object per line', found: '"{\\"timestamp\\": 5, \\"input_len"' });
    const wrong = write('mc-wrong.jsonl', `${good}{"timestamp": 5, "input_length": "many", "output_length": 5}\n`);
    expect(traceIssue(() => drain(openMooncakeTrace(wrong)))).toEqual({ file: wrong, line: 2, field: 'input_length', expected: 'a number', found: '"many"' });
    const negative = write('mc-neg.jsonl', `${good}{"timestamp": 5, "input_length": 0, "output_length": 5}\n`);
    expect(traceIssue(() => drain(openMooncakeTrace(negative)))).toEqual({ file: negative, line: 2, field: 'input_length', expected: 'a number > 0', found: '0' });
    const backwards = write('mc-back.jsonl', `${good}{"timestamp": 9, "input_length": 10, "output_length": 5}\n{"timestamp": 3, "input_length": 10, "output_length": 5}\n`);
    expect(traceIssue(() => drain(openMooncakeTrace(backwards)))).toMatchObject({ file: backwards, line: 3, field: 'timestamp', found: '3000 µs (timestamps must not decrease)' });
  });
});

describe('trace options and format detection', () => {
  it('--time-scale multiplies arrivals; --max-requests takes a prefix', () => {
    const full = drain(openMooncakeTrace(MOONCAKE));
    const half = drain(openMooncakeTrace(MOONCAKE, { timeScale: 0.5, maxRequests: 40 }));
    expect(half).toHaveLength(40);
    half.forEach((r, i) => {
      expect(r.arrivalUs).toBe(Math.floor(full[i].arrivalUs * 0.5));
      expect(r.inputTokens).toBe(full[i].inputTokens);
    });
  });

  it('detects Azure, Mooncake and TraceV2; rejects anything else with its first line', () => {
    expect(detectTraceFormat(AZURE)).toBe('azure');
    expect(detectTraceFormat(MOONCAKE)).toBe('mooncake');
    expect(detectTraceFormat(write('t.yaml', 'trace_version: 2\n'))).toBe('tracev2');
    expect(detectTraceFormat(write('t2.csv', `${TRACEV2_COLUMNS.join(',')}\n`))).toBe('tracev2');
    const other = write('other.csv', 'a,b,c\n1,2,3\n');
    expect(traceIssue(() => detectTraceFormat(other))).toMatchObject({ file: other, line: 1, found: '"a,b,c"' });
    const missing = join(dir, 'nope.jsonl');
    expect(traceIssue(() => openTrace(missing))).toEqual({ file: missing, expected: 'a readable trace file', found: 'ENOENT' });
  });
});

describe('TraceV2', () => {
  // A trace row holds a request's class, not whether its client named it (goodput's `default`).
  // A trace's request ids come from its file, so a replay cannot vouch for its blocks being
  // unshared (sharedPrefixBlocks); the hashes themselves are identical.
  const fields = (r: RequestSpec) => {
    const { blockHashes, unnamedSloClass: _, sharedPrefixBlocks: _s, ...rest } = r;
    return { ...rest, blockHashes: Array.from(blockHashes) };
  };

  it('parse, convert (write TraceV2), parse again: the identity, and converting twice is byte-identical (fast-check)', () => {
    let n = 0;
    fc.assert(
      fc.property(specArb(), (raw) => {
        const spec = parseWorkloadSpec(raw);
        const stem = join(dir, `rt-${n++}`);
        const written = writeTraceV2(createRequestSource(spec), `${stem}.yaml`, `${stem}.csv`);
        const original = drain(createRequestSource(spec));
        expect(written).toBe(original.length);
        const replayed = drain(openTraceV2(`${stem}.yaml`));
        // Not carried by TraceV2's columns: the per-client SLO target and network delay.
        expect(replayed.map(fields)).toEqual(original.map((r) => fields({ ...r, sloTargetUs: 0, networkDelayUs: 0 })));
        writeTraceV2(openTraceV2(`${stem}.csv`), `${stem}-again.yaml`, `${stem}-again.csv`);
        expect(readFileSync(`${stem}-again.csv`, 'utf8')).toBe(readFileSync(`${stem}.csv`, 'utf8'));
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('reads the header time unit and the deadline column as an absolute time, as BLIS does', () => {
    const stem = join(dir, 'unit');
    const row = (id: string, t: number, deadline: number) =>
      [id, 'c', 't', 'critical', '', 0, '', 0, 'true', 100, 7, 100, 0, 0, 0, 0, '', deadline, 0, t, t, 0, 0, 0, 'ok', '', ''].join(',');
    writeFileSync(`${stem}.yaml`, 'trace_version: 2\ntime_unit: milliseconds\n');
    writeFileSync(`${stem}.csv`, `${TRACEV2_COLUMNS.join(',')}\n${row('x', 3, 0)}\n${row('y', 5, 7)}\n`);
    const [x, y] = drain(openTraceV2(`${stem}.csv`));
    expect(x).toMatchObject({ id: 'x', arrivalUs: 3000, deadlineUs: 0, sloClass: 'critical', streaming: true, inputTokens: 100, outputTokens: 7 });
    expect(y).toMatchObject({ id: 'y', arrivalUs: 5000, deadlineUs: 7000 });
  });

  it('injects rows at send_time_us when positive, in time order, and starts wall-clock (observed) send times at 0', () => {
    const stem = join(dir, 'sends');
    const row = (id: string, arrival: number, send: number, deadline = 0) =>
      [id, 'c', 't', 'standard', '', 0, '', 0, 'true', 100, 7, 100, 0, 0, 0, 0, '', deadline, 0, arrival, send, 0, 0, 0, 'ok', '', ''].join(',');
    const epoch = 1_763_900_000_000_000;
    writeFileSync(`${stem}.csv`, `${TRACEV2_COLUMNS.join(',')}\n${row('0', 0, epoch + 40)}\n${row('1', 10, epoch + 30, 5_000_010)}\n${row('2', 20, 0)}\n`);
    writeFileSync(`${stem}.yaml`, 'trace_version: 3\ntime_unit: us\nmode: real\n');
    // Observed: the earliest send is 0, the others keep their wall-clock distance; a row without a
    // send keeps its arrival; out-of-order sends are sorted; a deadline keeps its distance from arrival.
    expect(drain(openTraceV2(`${stem}.csv`)).map((r) => [r.id, r.arrivalUs, r.deadlineUs])).toEqual([
      ['1', 0, 5_000_000],
      ['0', 10, 0],
      ['2', 20, 0],
    ]);
    // Workload-relative send times are simulation times already (BLIS's generated and converted
    // traces have send = arrival, under `mode: real` too).
    writeFileSync(`${stem}.csv`, `${TRACEV2_COLUMNS.join(',')}\n${row('0', 0, 40)}\n${row('1', 10, 30)}\n${row('2', 20, 0)}\n`);
    expect(drain(openTraceV2(`${stem}.csv`)).map((r) => [r.id, r.arrivalUs])).toEqual([
      ['2', 20],
      ['1', 30],
      ['0', 40],
    ]);
  });

  it('bad rows name file, line and column', () => {
    const stem = join(dir, 'bad');
    writeFileSync(`${stem}.yaml`, 'trace_version: 2\n');
    const cols = (over: Record<number, string | number>) => {
      const r: (string | number)[] = ['r', 'c', '', '', '', 0, '', 0, 'false', 100, 7, 100, 0, 0, 0, 0, '', 0, 0, 10, 10, 0, 0, 0, 'ok', '', ''];
      for (const [k, v] of Object.entries(over)) r[Number(k)] = v;
      return r.join(',');
    };
    const csv = `${stem}.csv`;
    const hdr = `${TRACEV2_COLUMNS.join(',')}\n`;
    writeFileSync(csv, `${hdr}${cols({})}\n${cols({}).slice(0, 20)}\n`);
    expect(traceIssue(() => drain(openTraceV2(csv)))).toEqual({ file: csv, line: 3, expected: '27 columns (as in the header row)', found: '10' });
    writeFileSync(csv, `${hdr}${cols({ 9: 'x' })}\n`);
    expect(traceIssue(() => drain(openTraceV2(csv)))).toEqual({ file: csv, line: 2, field: 'input_tokens', expected: 'an integer from 0 to 16777216', found: '"x"' });
    writeFileSync(csv, `${hdr}${cols({ 8: 'yes' })}\n`);
    expect(traceIssue(() => drain(openTraceV2(csv)))).toEqual({ file: csv, line: 2, field: 'streaming', expected: 'true or false', found: '"yes"' });
    writeFileSync(csv, `${hdr}${cols({ 19: 50, 20: 60, 17: 40 })}\n`);
    expect(traceIssue(() => drain(openTraceV2(csv)))).toMatchObject({ file: csv, line: 2, field: 'deadline_us', found: '40' });
    writeFileSync(`${stem}.yaml`, 'trace_version: 4\n');
    expect(traceIssue(() => openTraceV2(csv))).toMatchObject({ file: `${stem}.yaml`, field: 'trace_version', found: '4' });
  });
});
