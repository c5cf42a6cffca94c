import { simulate } from '@blis/cluster';
import { ArrayRequestSource, type RequestSpec, makeRequestSpec } from '@blis/engine';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimServer } from '../src/index.js';
import { LiveSimulation, promptWords, wordBlockHashes } from '../src/internal.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const MODEL = 'meta-llama/llama-3.1-8b-instruct';

describe('LiveSimulation', () => {
  // The server's correctness rests on this: advancing the simulation piecewise as requests come
  // in gives every request the TTFT and E2E one simulation of all of them reports (causality).
  it('gives each request the first and last token times of one whole simulation of the same arrivals', () => {
    const request = fc.record({ gapUs: fc.integer({ min: 0, max: 400_000 }), input: fc.integer({ min: 1, max: 3000 }), output: fc.integer({ min: 1, max: 300 }), shared: fc.boolean() });
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 25 }), fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 25 }), fc.integer({ min: 1, max: 3 }), (reqs, looks, instances) => {
        let t = 0;
        const specs: RequestSpec[] = reqs.map((r, i) => {
          t += r.gapUs;
          const words = Array.from({ length: r.input }, (_, k) => (r.shared && k < 512 ? `p${k}` : `r${i}w${k}`));
          return makeRequestSpec({ index: i, id: `q${i}`, arrivalUs: t, inputTokens: r.input, outputTokens: r.output, blockHashes: wordBlockHashes(words, 16) });
        });
        const config = { model: MODEL, seed: 7, numInstances: instances, routing: { policy: 'least-loaded' } };
        const whole = simulate({ ...config, includeRequests: true }, { source: new ArrayRequestSource(specs.map((s) => ({ ...s }))) });
        const live = new LiveSimulation(config);
        const entries = specs.map((s, i) => {
          // Looks between arrivals, as a server's timer would take them.
          live.advance(Math.max(0, s.arrivalUs - (looks[i] ?? 0)));
          const { index: _i, arrivalUs: _a, ...req } = s;
          return live.add(req, s.arrivalUs);
        });
        live.advance(Number.MAX_SAFE_INTEGER);
        const byId = new Map((whole.requests ?? []).map((r) => [r.request_id, r]));
        for (const e of entries) {
          const r = byId.get(e.id);
          expect(e.status).toBe(r === undefined ? 'failed' : 'served');
          if (r === undefined) continue;
          expect(e.dueUs.length).toBe(e.outputTokens);
          expect(e.dueUs[0] - e.arrivalUs).toBeCloseTo(r.ttft_ms * 1000, 6);
          expect(e.endUs - e.arrivalUs).toBeCloseTo(r.e2e_ms * 1000, 6);
          for (let k = 1; k < e.dueUs.length; k++) expect(e.dueUs[k]).toBeGreaterThanOrEqual(e.dueUs[k - 1]);
          expect(e.endUs).toBeGreaterThanOrEqual(e.dueUs[e.outputTokens - 1]);
        }
      }),
      { numRuns: propertyRuns(25) },
    );
  });

  it('holds the simulation before an announced arrival until its request is added', () => {
    const live = new LiveSimulation({ model: MODEL, seed: 1 });
    const spec = (id: string) => ({ ...makeRequestSpec({ index: 0, id, arrivalUs: 0, inputTokens: 100, outputTokens: 5 }) });
    const { index: _a, arrivalUs: _b, ...first } = spec('a');
    live.add(first, 1000);
    const hold = live.hold(20_000);
    live.advance(90_000);
    expect(live.cluster.clockUs).toBeLessThan(20_000);
    const { index: _c, arrivalUs: _d, ...second } = spec('b');
    // Another request, later than the held one, is added without running past the hold.
    live.add({ ...second, id: 'c' }, 40_000);
    expect(live.cluster.clockUs).toBeLessThan(20_000);
    hold.release();
    expect(live.add(second, 20_000).arrivalUs).toBe(20_000);
    live.advance(90_000);
    expect(live.cluster.clockUs).toBeGreaterThan(20_000);
  });

  it('never moves its clock back: a request arriving before the last event is taken at the clock', () => {
    const live = new LiveSimulation({ model: MODEL, seed: 1 });
    const spec = (id: string) => ({ ...makeRequestSpec({ index: 0, id, arrivalUs: 0, inputTokens: 100, outputTokens: 5 }) });
    const { index: _a, arrivalUs: _b, ...first } = spec('a');
    live.add(first, 1000);
    live.advance(50_000);
    const { index: _c, arrivalUs: _d, ...second } = spec('b');
    const late = live.add(second, 10);
    expect(late.arrivalUs).toBeGreaterThanOrEqual(1000);
    expect(late.arrivalUs).toBe(live.cluster.clockUs);
  });
});

describe('promptWords / wordBlockHashes', () => {
  it('counts words and shares exactly the leading blocks whose words are equal', () => {
    expect(promptWords('  a b\n c\t')).toEqual(['a', 'b', 'c']);
    const a = wordBlockHashes([...Array(40).keys()].map((k) => `w${k}`), 16);
    const b = wordBlockHashes([...Array(40).keys()].map((k) => (k < 20 ? `w${k}` : `x${k}`)), 16);
    expect(a.length).toBe(2);
    expect(a[0]).toBe(b[0]);
    expect(a[1]).not.toBe(b[1]);
  });
});

describe('startSimServer', () => {
  let server: SimServer;
  beforeAll(async () => {
    server = await startSimServer({ config: { model: MODEL, seed: 3 }, servedModelName: 'sim-model' });
  });
  afterAll(() => server.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('streams one chunk per token, then the usage chunk and [DONE] (completions)', async () => {
    const r = await post('/v1/completions', { model: 'm', prompt: 'one two three four', max_tokens: 6, stream: true, stream_options: { include_usage: true } }, { 'x-request-id': 'abc' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    const events = (await r.text()).split('\n\n').filter((e) => e.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(chunks).toHaveLength(7);
    expect(chunks.slice(0, 6).every((c) => c.choices.length === 1 && c.id === 'cmpl-abc')).toBe(true);
    expect(chunks[5].choices[0].finish_reason).toBe('length');
    expect(chunks[6]).toMatchObject({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 } });
  });

  it('answers a chat request without streaming in one body, and caps max_tokens', async () => {
    const capped = await startSimServer({ config: { model: MODEL }, maxOutputTokens: 3 });
    try {
      const r = await fetch(`${capped.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello there' }], max_tokens: 10 }),
      });
      const body = (await r.json()) as { choices: { message: { content: string } }[] };
      expect(body).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant' }, finish_reason: 'stop' }], usage: { prompt_tokens: 2, completion_tokens: 3 } });
      expect(promptWords(body.choices[0].message.content)).toHaveLength(3);
    } finally {
      await capped.close();
    }
  });

  it('refuses what is not an OpenAI request: 400 with the field named, 404 elsewhere', async () => {
    const notJson = await post('/v1/completions', 'nope');
    expect(notJson.status).toBe(400);
    const noPrompt = await post('/v1/completions', { model: 'm', max_tokens: 2 });
    expect(noPrompt.status).toBe(400);
    expect(((await noPrompt.json()) as { error: { message: string } }).error.message).toMatch(/^prompt:/);
    const empty = await post('/v1/chat/completions', { messages: [{ role: 'user', content: '   ' }] });
    expect(empty.status).toBe(400);
    expect((await fetch(`${server.url}/v2/anything`)).status).toBe(404);
  });

  // Two requests whose headers leave together, one body sent at once and one 60 ms later.
  const arrivalGap = async (bodyWaitMs: number): Promise<number> => {
    const arrivals = new Map<string, number>();
    const timed = await startSimServer({ config: { model: MODEL }, bodyWaitMs, onResponseEnd: (e) => arrivals.set(e.id, e.arrivalUs) });
    try {
      const body = JSON.stringify({ prompt: 'one two three', max_tokens: 2 });
      const send = (id: string, bodyDelayMs: number) =>
        new Promise<void>((resolve, reject) => {
          const req = httpRequest(`${timed.url}/v1/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': id } }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.flushHeaders();
          setTimeout(() => req.end(body), bodyDelayMs);
        });
      await Promise.all([send('quick', 0), send('slow', 60)]);
      return arrivals.get('slow')! - arrivals.get('quick')!;
    } finally {
      await timed.close();
    }
  };

  it("takes a request's arrival when its headers are in, holding the simulation for its body", async () => {
    expect(await arrivalGap(1000)).toBeLessThan(30_000);
  });

  it('takes the arrival at the end of a body slower than the wait, so a trickling client stalls no one', async () => {
    expect(await arrivalGap(10)).toBeGreaterThan(45_000);
  });

  it('lists its model and exposes vLLM prefix-cache counters that count a repeated prompt as hits', async () => {
    expect(await (await fetch(`${server.url}/v1/models`)).json()).toMatchObject({ data: [{ id: 'sim-model' }] });
    const counter = async (name: string) => Number(/^(\S+) (\d+)$/m.exec((await (await fetch(`${server.url}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2]);
    const before = await counter('vllm:gpu_prefix_cache_hits_total');
    const prompt = Array.from({ length: 64 }, (_, k) => `same${k}`).join(' ');
    for (let i = 0; i < 2; i++) await (await post('/v1/completions', { prompt, max_tokens: 2 })).json();
    expect(await counter('vllm:gpu_prefix_cache_hits_total')).toBeGreaterThan(before);
    expect(await counter('vllm:prefix_cache_queries_total')).toBeGreaterThanOrEqual(128);
  });
});
