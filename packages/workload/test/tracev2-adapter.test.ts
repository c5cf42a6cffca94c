import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArrayRequestSource, makeRequestSpec } from '@blis/engine';
import { createRequestSource, openTraceV2, parseWorkloadSpec, writeTraceV2 } from '@blis/workload';
import { describe, expect, it } from 'vitest';
import { drain } from '../src/testing/index.js';

// LoRA adapters on requests: a client's `adapter`, and BLIS's trailing TraceV2 `adapter` column.

describe('adapter ids', () => {
  it('a client names the adapter its requests ask for; others ask for none', () => {
    const spec = parseWorkloadSpec({
      version: '2',
      aggregate_rate: 10,
      num_requests: 20,
      clients: [
        { id: 'a', rate_fraction: 0.5, adapter: 'sql', input_distribution: { type: 'constant', params: { value: 10 } }, output_distribution: { type: 'constant', params: { value: 2 } } },
        { id: 'b', rate_fraction: 0.5, input_distribution: { type: 'constant', params: { value: 10 } }, output_distribution: { type: 'constant', params: { value: 2 } } },
      ],
    });
    const reqs = drain(createRequestSource(spec));
    expect(new Set(reqs.map((r) => `${r.clientId}:${r.adapter ?? '-'}`))).toEqual(new Set(['a:sql', 'b:-']));
    // A request without an adapter has no adapter key at all (LoRA-off runs see the same records).
    expect(reqs.filter((r) => r.clientId === 'b').every((r) => !('adapter' in r))).toBe(true);
  });

  it('survive a TraceV2 round trip in a trailing adapter column, as BLIS writes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tracev2-adapter-'));
    const specs = [0, 1, 2].map((index) => makeRequestSpec({ index, arrivalUs: index * 10, inputTokens: 20, outputTokens: 3, ...(index !== 1 ? { adapter: `ad${index}` } : {}) }));
    writeTraceV2(new ArrayRequestSource(specs), join(dir, 't.yaml'), join(dir, 't.csv'), {}, undefined, true);
    const header = readFileSync(join(dir, 't.csv'), 'utf8').split('\n')[0];
    expect(header.endsWith(',finish_reason,adapter')).toBe(true);
    const back = drain(openTraceV2(join(dir, 't.yaml')));
    expect(back.map((r) => r.adapter)).toEqual(['ad0', undefined, 'ad2']);
  });
});
