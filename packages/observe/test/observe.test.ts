import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArrayRequestSource, type RequestSpec, makeRequestSpec } from '@blis/engine';
import { createRequestSource, openTraceV2, parseWorkloadSpec, specFromFlags } from '@blis/workload';
import { afterAll, describe, expect, it } from 'vitest';
import { observe } from '../src/recorder/observe.js';
import { writeRealTrace } from '../src/recorder/trace-writer.js';
import { type FakeServer, openAiLike, promptWords, startFakeServer } from './fake-server.js';

const servers: FakeServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
async function server(...a: Parameters<typeof startFakeServer>): Promise<FakeServer> {
  const s = await startFakeServer(...a);
  servers.push(s);
  return s;
}
const dir = mkdtempSync(join(tmpdir(), 'blis-observe-'));

/** `n` requests all arriving at 0: dispatch is bounded by the concurrency limit alone. */
function burst(n: number, over: Parameters<typeof makeRequestSpec>[0] | object = {}) {
  return new ArrayRequestSource(Array.from({ length: n }, (_, i) => makeRequestSpec({ index: i, arrivalUs: 0, inputTokens: 10, outputTokens: 3, streaming: true, ...over })));
}

describe('observe', () => {
  it('never has more than --max-concurrency requests in flight', async () => {
    // Each answer waits until 3 requests are in flight or 30 ms pass, so a broken limit shows.
    const s = await server(async (q, res) => {
      await new Promise((r) => setTimeout(r, 30));
      await openAiLike(q, res);
    });
    const r = await observe({ serverUrl: s.url, model: 'm', source: burst(12), seed: 1, maxConcurrency: 3 });
    expect(r.records).toHaveLength(12);
    expect(r.records.every((x) => x.status === 'ok')).toBe(true);
    expect(s.maxInFlight).toBeLessThanOrEqual(3);
    expect(s.maxInFlight).toBeGreaterThan(1);
  });

  it('sends warm-up requests but does not record them; request ids are dispatch indices', async () => {
    const s = await server(openAiLike);
    const r = await observe({ serverUrl: s.url, model: 'm', source: burst(5), seed: 1, maxConcurrency: 1, warmupRequests: 2 });
    expect(r.sent).toBe(5);
    expect(r.records.map((x) => x.requestId)).toEqual([2, 3, 4]);
    // Calibration plus five.
    expect(s.seen).toHaveLength(6);
    expect(s.seen[0].body).toMatchObject({ max_tokens: 1, stream: false });
    expect(String(s.seen[0].body.prompt).trim().split(' ')).toHaveLength(100);
  });

  it('--no-streaming and forced streaming override the workload', async () => {
    const s = await server(openAiLike);
    const off = await observe({ serverUrl: s.url, model: 'm', source: burst(2), seed: 1, noStreaming: true });
    expect(off.records.map((x) => [x.streaming, x.numChunks])).toEqual([
      [false, 1],
      [false, 1],
    ]);
    const on = await observe({ serverUrl: s.url, model: 'm', source: burst(1, { streaming: false }), seed: 1, forceStreaming: true });
    expect(on.records[0]).toMatchObject({ streaming: true, numChunks: 4 });
  });

  it('closed loop: N users, each one request at a time, the workload in order', async () => {
    const s = await server(openAiLike);
    const r = await observe({ serverUrl: s.url, model: 'm', source: burst(9), seed: 1, maxConcurrency: 3, closedLoop: { users: 3, thinkTimeUs: 1000 } });
    expect(r.records).toHaveLength(9);
    expect(s.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('sends a session round only after the previous answer (onRequestDone)', async () => {
    const spec = parseWorkloadSpec({
      version: '2',
      seed: 3,
      aggregate_rate: 1000,
      // One session kept (as in BLIS, num_requests cuts the placement of its rounds); it runs its 4 rounds.
      num_requests: 1,
      clients: [
        {
          id: 'chat',
          rate_fraction: 1,
          streaming: true,
          input_distribution: { type: 'constant', params: { value: 5 } },
          output_distribution: { type: 'constant', params: { value: 2 } },
          reasoning: { multi_turn: { max_rounds: 4, think_time_us: 1000, context_growth: 'accumulate' } },
        },
      ],
    });
    const s = await server(openAiLike);
    const r = await observe({ serverUrl: s.url, model: 'm', source: createRequestSource(spec), seed: 3 });
    expect(r.records.map((x) => x.roundIndex)).toEqual([0, 1, 2, 3]);
    for (let i = 1; i < 4; i++) expect(r.records[i].sendTimeUs).toBeGreaterThanOrEqual(r.records[i - 1].lastChunkTimeUs);
  });

  it("a spec's concurrency users: each sends its next request after its answer plus think time, never two at once", async () => {
    const spec = parseWorkloadSpec({
      version: '2',
      seed: 4,
      aggregate_rate: 0,
      num_requests: 8,
      clients: [
        {
          id: 'agents',
          rate_fraction: 0,
          concurrency: 2,
          think_time_us: 20_000,
          streaming: true,
          input_distribution: { type: 'constant', params: { value: 5 } },
          output_distribution: { type: 'constant', params: { value: 2 } },
        },
      ],
    });
    const s = await server(async (q, res) => {
      await new Promise((r) => setTimeout(r, 10));
      await openAiLike(q, res);
    });
    const r = await observe({ serverUrl: s.url, model: 'm', source: createRequestSource(spec), seed: 4 });
    expect(r.records).toHaveLength(8);
    expect(s.maxInFlight).toBeLessThanOrEqual(2);
    const users = new Map<string, typeof r.records>();
    for (const x of r.records) users.set(x.sessionId, [...(users.get(x.sessionId) ?? []), x]);
    expect([...users.keys()].sort()).toEqual(['concurrency_agents_user_0', 'concurrency_agents_user_1']);
    for (const rounds of users.values()) {
      expect(rounds.map((x) => x.roundIndex)).toEqual(rounds.map((_, i) => i));
      // The answer ends at lastChunkTimeUs; the next request leaves a think time later, not before.
      for (let i = 1; i < rounds.length; i++) expect(rounds[i].sendTimeUs - rounds[i - 1].lastChunkTimeUs).toBeGreaterThanOrEqual(20_000);
    }
  });

  it('scrapes /metrics at the start and end of the window', async () => {
    let queries = 100;
    const s = await server(openAiLike, () => {
      const text = `# TYPE vllm:gpu_prefix_cache_queries counter\nvllm:gpu_prefix_cache_queries_total{engine="0"} ${queries}\nvllm:gpu_prefix_cache_hits_total{engine="0"} ${queries / 4}\n`;
      queries += 100;
      return text;
    });
    const r = await observe({ serverUrl: s.url, model: 'm', source: burst(1), seed: 1, kvMetrics: { vllmCommit: 'c0ffee' } });
    expect(r.observedKvMetrics).toEqual({ source: 'gpu-prefix-cache-fallback', hit_rate: 0.25, block_hits: 25, block_queries: 100, vllm_commit: 'c0ffee' });
    const warnings: string[] = [];
    const none = await server(openAiLike); // no /metrics: 404
    const r2 = await observe({ serverUrl: none.url, model: 'm', source: burst(1), seed: 1, kvMetrics: {}, onWarning: (w) => warnings.push(w) });
    expect(r2.observedKvMetrics).toBeUndefined();
    expect(warnings.join('\n')).toContain('HTTP 404');
  });

  it('an abort stops dispatch and records the requests in flight as "aborted"', async () => {
    const s = await server(() => {}); // answers nothing, ever (calibration included)
    const ac = new AbortController();
    const p = observe({ serverUrl: s.url, model: 'm', source: burst(3), seed: 1, timeoutMs: 60_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const r = await p;
    expect(r.aborted).toBe(true);
    expect(r.records.every((x) => x.status === 'error' && x.errorMessage === 'aborted')).toBe(true);
  });

  it('with a signal and more than 10 requests in flight, Node prints no listener warning mid-run', async () => {
    const s = await server(async (q, res) => {
      await new Promise((r) => setTimeout(r, 30));
      await openAiLike(q, res);
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const signal = new AbortController().signal;
      const r = await observe({ serverUrl: s.url, model: 'm', source: burst(16), seed: 1, signal });
      expect(r.records.every((x) => x.status === 'ok')).toBe(true);
      // Nothing left behind on the caller's signal, which may serve many runs.
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('round trip: the pair written reads back through openTraceV2 with the same requests', async () => {
    const spec = specFromFlags({ rate: 200, numRequests: 6, promptTokens: 40, promptTokensStdev: 10, outputTokens: 3, outputTokensStdev: 1, outputTokensMin: 1, outputTokensMax: 5, prefixTokens: 8, seed: 9 });
    const withIdentity = { ...spec, clients: spec.clients.map((c) => ({ ...c, tenant_id: 'acme', slo_class: 'batch' as const, streaming: true })) };
    const s = await server(openAiLike);
    const r = await observe({ serverUrl: s.url, model: 'm', source: createRequestSource(withIdentity), seed: 9 });
    const header = join(dir, 'rt.yaml');
    const data = join(dir, 'rt.csv');
    writeRealTrace(header, data, { createdAt: '2026-01-01T00:00:00Z', warmUpRequests: 0, workloadSeed: 9, serverType: 'vllm', model: 'm', measuredRttMs: 0 }, r.records, join(dir, 'rt.itl.csv'));
    const again = createRequestSource(withIdentity);
    const back = openTraceV2(header, { dataPath: data });
    // Replay injects at the send times (BLIS's rule), the epoch moved to start at 0.
    const firstSend = Math.min(...r.records.map((x) => x.sendTimeUs));
    const sent = new Map(r.records.map((x) => [String(x.requestId), x.sendTimeUs - firstSend]));
    const wants = new Map<string, RequestSpec>();
    for (let w = again.next(); w !== undefined; w = again.next()) wants.set(String(wants.size), w);
    for (let i = 0; i < 6; i++) {
      const got = back.next()!;
      const want = wants.get(got.id)!;
      expect(got).toMatchObject({ inputTokens: want.inputTokens, outputTokens: want.outputTokens, tenantId: 'acme', sloClass: 'batch', prefixGroup: want.prefixGroup, prefixLength: 8, streaming: true, arrivalUs: sent.get(got.id) });
    }
    expect(back.next()).toBeUndefined();
    // Each prompt reached the server at its sampled length (one fake token per word, so 1 token per word).
    for (const rec of r.records) {
      const seen = s.seen.find((q) => q.headers['x-request-id'] === rec.xRequestId)!;
      expect(promptWords(seen.body)).toBe(rec.inputTokens);
      expect(rec.serverInputTokens).toBe(rec.inputTokens);
      expect(seen.headers['x-gateway-inference-fairness-id']).toBe('acme');
      expect(seen.body.priority).toBe(5);
    }
    const csv = readFileSync(data, 'utf8').split('\n');
    expect(csv[0].split(',')).toContain('vllm_priority');
    expect(csv[0].endsWith(',x_request_id')).toBe(true);
    const itl = readFileSync(join(dir, 'rt.itl.csv'), 'utf8').trim().split('\n');
    expect(itl[0]).toBe('request_id,chunk_index,timestamp_us');
    // One row per token chunk: each stream's usage-only chunk counts in num_chunks, not in the ITL file.
    expect(itl.length - 1).toBe(r.records.reduce((a, x) => a + x.numChunks - 1, 0));
    expect(itl.length - 1).toBe(r.records.reduce((a, x) => a + x.outputTokens, 0));
  });
});
