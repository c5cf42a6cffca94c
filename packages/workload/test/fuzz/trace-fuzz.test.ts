import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSource } from '@blis/engine';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mutate, mutationsArb } from '../../../../tools/test-support/input-mutations.js';
import { openAzureTrace, openMooncakeTrace, openTrace, openTraceV2Text } from '../../src/index.js';
import { TRACEV2_COLUMNS } from '../../src/internal.js';
import { acceptedOrLocated } from './fuzz-contract.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// The trace readers (TraceV2 header + CSV, Azure CSV, Mooncake JSONL) on mutated valid traces:
// every row read, or a located refusal.

const dir = mkdtempSync(join(tmpdir(), 'blis-trace-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Reads a whole source (a trace reader reports a bad row only when it reaches it). */
function drain(src: RequestSource): number {
  let n = 0;
  while (src.next() !== undefined) n++;
  return n;
}

function v2Row(v: Partial<Record<(typeof TRACEV2_COLUMNS)[number], string | number>>): string {
  const base = { streaming: 'false', input_tokens: 100, output_tokens: 20, status: 'ok', arrival_time_us: 0, round_index: 0, prefix_length: 0 };
  const row: Record<string, string | number> = { ...base, ...v };
  return TRACEV2_COLUMNS.map((c) => row[c] ?? (c.endsWith('_tokens') || c.endsWith('_us') || c === 'num_chunks' || c === 'reason_ratio' ? 0 : '')).join(',');
}

const V2_HEADER = 'trace_version: 2\ntime_unit: microseconds\nmode: generated\nwarm_up_requests: 0\n';
const V2_DATA = [
  TRACEV2_COLUMNS.join(','),
  v2Row({ request_id: 'r0', client_id: 'c', prefix_group: 'sys', prefix_length: 64, input_tokens: 100, arrival_time_us: 0 }),
  v2Row({ request_id: 'r1', client_id: 'c', prefix_group: 'sys', prefix_length: 64, input_tokens: 50, arrival_time_us: 1500, deadline_us: 900000 }),
  v2Row({ request_id: 'r2', session_id: 's1', round_index: 0, input_tokens: 30, arrival_time_us: 2000, streaming: 'true' }),
  v2Row({ request_id: 'r3', session_id: 's1', round_index: 1, input_tokens: 40, arrival_time_us: 9000, send_time_us: 9100 }),
  v2Row({ request_id: 'r4', slo_class: 'critical', input_tokens: 7, output_tokens: 0, arrival_time_us: 12000, server_input_tokens: 9 }),
].join('\n');

const AZURE = `TIMESTAMP,ContextTokens,GeneratedTokens
2023-11-16 18:15:46.6805900,374,44
2023-11-16 18:15:50.9951690,396,109
2023-11-16 18:15:51.4095180,879,41
2023-11-16 18:15:51.7708390,91,114
2024-02-29 23:59:59.9999999,1,0
`;

const MOONCAKE = `{"timestamp": 0, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]}
{"timestamp": 0, "input_length": 6472, "output_length": 26, "hash_ids": [46, 47, 48, 49, 50, 51, 60, 61, 62, 63, 64, 65, 66]}
{"timestamp": 3052, "input_length": 13, "output_length": 1, "hash_ids": [67]}
{"timestamp": 3052.5, "input_length": 1200, "output_length": 0}
`;

let fileNo = 0;
function written(name: string, text: string): string {
  const path = join(dir, `${fileNo++}-${name}`);
  writeFileSync(path, text);
  return path;
}

describe('trace readers under fuzzing', () => {
  it('TraceV2 header and data: accepted or refused with located, bounded messages (600 pairs)', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fc.boolean(), mutationsArb(false), (inHeader, ms) => {
        const header = inHeader ? mutate(V2_HEADER, ms) : V2_HEADER;
        const data = inHeader ? V2_DATA : mutate(V2_DATA, ms);
        seen[acceptedOrLocated(() => drain(openTraceV2Text({ header, headerName: 't.yaml', data, dataName: 't.csv' })), ['t.yaml', 't.csv'])]++;
      }),
      { numRuns: propertyRuns(600) },
    );
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('TraceV2 header YAML mutated with YAML-only edits (nesting, aliases) (150 headers)', () => {
    fc.assert(
      fc.property(mutationsArb(true), (ms) => {
        acceptedOrLocated(() => drain(openTraceV2Text({ header: mutate(V2_HEADER, ms), headerName: 't.yaml', data: V2_DATA, dataName: 't.csv' })), ['t.yaml', 't.csv']);
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('Azure CSV: accepted or refused with located, bounded messages (400 files)', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(mutationsArb(false), fc.boolean(), (ms, detect) => {
        const path = written('az.csv', mutate(AZURE, ms));
        seen[acceptedOrLocated(() => drain(detect ? openTrace(path) : openAzureTrace(path)), [path])]++;
      }),
      { numRuns: propertyRuns(400) },
    );
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('Mooncake JSONL: accepted or refused with located, bounded messages (400 files)', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(mutationsArb(false), fc.boolean(), (ms, detect) => {
        const path = written('m.jsonl', mutate(MOONCAKE, ms));
        seen[acceptedOrLocated(() => drain(detect ? openTrace(path) : openMooncakeTrace(path)), [path])]++;
      }),
      { numRuns: propertyRuns(400) },
    );
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(100);
  });
});
