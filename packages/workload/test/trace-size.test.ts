import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateTraceRecords } from '../src/traces/trace-size.js';

const dir = mkdtempSync(join(tmpdir(), 'blis-trace-size-'));
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('estimateTraceRecords', () => {
  it('counts a file within 64 KiB: its lines less the header, a last line without newline too', () => {
    const header = 'TIMESTAMP,ContextTokens,GeneratedTokens\n';
    const row = '2023-11-16 18:17:03.9799600,4808,10';
    expect(estimateTraceRecords(write('a.csv', `${header}${row}\n${row}\n`), { format: 'azure' })).toMatchObject({ records: 2, exact: true });
    expect(estimateTraceRecords(write('b.csv', `${header}${row}\n${row}`), { format: 'azure' })).toMatchObject({ records: 2, exact: true });
    expect(estimateTraceRecords(write('c.jsonl', '{}\n{}\n{}\n'), { format: 'mooncake' })).toMatchObject({ records: 3, exact: true });
  });

  it('estimates a larger file from its first 64 KiB: size over the mean line length there', () => {
    // 10-byte lines: 65536 bytes hold 6553 whole lines (65530 bytes); 100000 bytes / 10 = 10000, less the header.
    const text = '123456789\n'.repeat(10_000);
    expect(estimateTraceRecords(write('d.csv', text), { format: 'azure' })).toEqual({ records: 9999, exact: false, file: join(dir, 'd.csv'), bytes: 100_000 });
    // No newline in the sample: one record per 64 KiB.
    expect(estimateTraceRecords(write('e.jsonl', 'x'.repeat(70_000)), { format: 'mooncake' })).toMatchObject({ records: 2, exact: false });
  });
});
