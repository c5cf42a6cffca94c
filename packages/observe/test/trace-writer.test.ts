import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ObservedRecord } from '../src/recorder/observed-record.js';
import { itlCsv, realTraceCsv, realTraceHeaderYaml } from '../src/recorder/trace-writer.js';
import { goDurationMs, goodputTargets, parseClassDurations } from '../src/recorder/goodput-targets.js';

const rec = (o: Partial<ObservedRecord>): ObservedRecord => ({
  requestId: 0, clientId: 'c', tenantId: '', sloClass: '', vllmPriority: 0, sessionId: '', roundIndex: 0, prefixGroup: '', prefixLength: 0,
  streaming: true, inputTokens: 10, outputTokens: 3, serverInputTokens: 11, deadlineUs: 0, sloTargetUs: 0, arrivalTimeUs: 5,
  sendTimeUs: 1000, firstChunkTimeUs: 1100, lastChunkTimeUs: 1300, numChunks: 3, status: 'ok', errorMessage: '', finishReason: 'length',
  xRequestId: '', tokenChunkTimesUs: [1100, 1200, 1300], ...o,
});

describe('mode: real header', () => {
  it('has BLIS\'s keys in order, and leaves empty blocks out', () => {
    const y = realTraceHeaderYaml({
      createdAt: '2026-01-02T03:04:05Z', warmUpRequests: 2, workloadSeed: 42, workloadSpec: 'preset:chatbot', serverType: 'vllm', model: 'm', measuredRttMs: 1.5,
      goodputSloTargets: { standard: { e2e_ms: 5000 }, critical: { ttft_ms: 100 } },
      observedKvMetrics: { source: 'tiered', hit_rate: 0.5, block_hits: 1, block_queries: 2 },
    });
    expect(Object.keys(parse(y))).toEqual(['trace_version', 'time_unit', 'created_at', 'mode', 'warm_up_requests', 'workload_seed', 'workload_spec', 'server', 'network', 'goodput_slo_targets', 'observed_kv_metrics']);
    expect(parse(y)).toMatchObject({ trace_version: 3, time_unit: 'us', mode: 'real', server: { type: 'vllm', model: 'm' }, network: { measured_rtt_ms: 1.5 } });
    expect(Object.keys(parse(y).goodput_slo_targets)).toEqual(['critical', 'standard']);
    const bare = parse(realTraceHeaderYaml({ createdAt: 'x', warmUpRequests: 0, serverType: 'vllm', model: 'm', measuredRttMs: 0 }));
    expect(bare.network).toEqual({});
    expect(bare).not.toHaveProperty('workload_seed');
    expect(bare).not.toHaveProperty('goodput_slo_targets');
  });
});

describe('mode: real CSV', () => {
  it('has the 27 columns when no record needs more, rows by request_id, suffix-only input_tokens', () => {
    const csv = realTraceCsv([rec({ requestId: 1, prefixGroup: 'g', prefixLength: 4 }), rec({ requestId: 0 })]).trim().split('\n');
    expect(csv[0].split(',')).toHaveLength(27);
    expect(csv[1]).toBe('0,c,,,,0,,0,true,10,3,0,0,0,0,0,,0,11,5,1000,1100,1300,3,ok,,length');
    expect(csv[2]).toBe('1,c,,,,0,g,4,true,6,3,0,0,0,0,0,,0,11,5,1000,1100,1300,3,ok,,length');
  });
  it('adds vllm_priority after slo_class (critical is 0), slo_target_us after deadline_us, x_request_id last', () => {
    const csv = realTraceCsv([rec({ sloClass: 'critical', vllmPriority: 0, sloTargetUs: 2000, xRequestId: 'u-1', status: 'error', errorMessage: 'HTTP 500: a, "b"' })]).trim().split('\n');
    const cols = csv[0].split(',');
    expect(cols.slice(3, 5)).toEqual(['slo_class', 'vllm_priority']);
    expect(cols[cols.indexOf('deadline_us') + 1]).toBe('slo_target_us');
    expect(cols.at(-1)).toBe('x_request_id');
    expect(csv[1]).toBe('0,c,,critical,0,,0,,0,true,10,3,0,0,0,0,0,,0,2000,11,5,1000,1100,1300,3,error,"HTTP 500: a, ""b""",length,u-1');
  });
  it('writes one ITL row per chunk of ok streaming records only', () => {
    expect(itlCsv([rec({ requestId: 3 }), rec({ requestId: 4, status: 'error' }), rec({ requestId: 5, streaming: false, tokenChunkTimesUs: [] })])).toBe('request_id,chunk_index,timestamp_us\n3,0,1100\n3,1,1200\n3,2,1300\n');
  });
});

describe('goodput flags', () => {
  it('reads Go durations per class, merged by class in name order', () => {
    expect(goDurationMs('1m30s')).toBe(90_000);
    expect(goDurationMs('250us')).toBe(0.25);
    expect(goDurationMs('5')).toBeUndefined();
    const t = parseClassDurations('critical=100ms, standard=1.5s');
    expect([...t]).toEqual([['critical', 100], ['standard', 1500]]);
    expect(goodputTargets(t, undefined, new Map([['batch', 60_000]]))).toEqual({ batch: { e2e_ms: 60_000 }, critical: { ttft_ms: 100 }, standard: { ttft_ms: 1500 } });
    expect(() => parseClassDurations('critical')).toThrow('not class=duration');
    expect(() => parseClassDurations('critical=0s')).toThrow('positive duration');
  });
});
