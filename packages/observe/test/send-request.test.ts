import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutgoingRequest } from '../src/recorder/request-body.js';
import { type HttpTarget, sendRequest } from '../src/recorder/send-request.js';
import { type Behaviour, type FakeServer, openAiLike, startFakeServer } from './fake-server.js';

const agent = new Agent({ connections: 8, headersTimeout: 0, bodyTimeout: 0 });
const servers: FakeServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await agent.close();
});

async function target(b: Behaviour, over: Partial<HttpTarget> = {}): Promise<HttpTarget> {
  const s = await startFakeServer(b);
  servers.push(s);
  return { baseUrl: s.url, model: 'm', apiFormat: 'completions', apiKey: '', dispatcher: agent, timeoutMs: 10_000, ...over };
}

const req = (o: Partial<OutgoingRequest> = {}): OutgoingRequest => ({ prompt: 'one two three', maxOutputTokens: 4, streaming: true, unconstrained: false, tenantId: '', sloClass: '', sloTargetUs: 0, ...o });

describe('sendRequest', () => {
  it('streams: one chunk per SSE event including the usage chunk, usage counts, last finish reason; token chunks apart', async () => {
    for (const apiFormat of ['completions', 'chat'] as const) {
      const s = await sendRequest(await target(openAiLike, { apiFormat }), req());
      expect(s).toMatchObject({ status: 'ok', errorMessage: '', numChunks: 5, outputTokens: 4, serverInputTokens: 3, finishReason: 'length' });
      // The usage-only chunk is a chunk (BLIS's num_chunks and last chunk) but carries no token.
      expect(s.tokenChunkTimesUs).toHaveLength(4);
      expect(s.firstChunkTimeUs).toBe(s.tokenChunkTimesUs[0]);
      expect(s.lastChunkTimeUs).toBeGreaterThanOrEqual(s.tokenChunkTimesUs[3]);
      expect(s.sendTimeUs).toBeLessThanOrEqual(s.firstChunkTimeUs);
      expect(s.xRequestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
  it('without streaming: one chunk from the first byte to the end of the body', async () => {
    const s = await sendRequest(await target(openAiLike, { apiFormat: 'chat' }), req({ streaming: false }));
    expect(s).toMatchObject({ status: 'ok', numChunks: 1, outputTokens: 4, serverInputTokens: 3, finishReason: 'length' });
    expect(s.firstChunkTimeUs).toBeLessThanOrEqual(s.lastChunkTimeUs);
  });
  it('records HTTP 500 with its body as an error', async () => {
    const s = await sendRequest(await target((_q, res) => void res.writeHead(500).end('boom')), req());
    expect(s).toMatchObject({ status: 'error', errorMessage: 'HTTP 500: boom' });
  });
  it('records the per-request limit as a timeout', async () => {
    const t = await target((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[]}\n\n'); // then nothing more
    }, { timeoutMs: 200 });
    const s = await sendRequest(t, req());
    expect(s.status).toBe('timeout');
    expect(s.errorMessage).toContain('200 ms');
  });
  it('records non-OpenAI answers as errors: HTML, JSON without choices, an in-band error', async () => {
    const html = await target((_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>login</body></html>'));
    expect((await sendRequest(html, req({ streaming: false }))).errorMessage).toMatch(/^JSON parse error/);
    expect((await sendRequest(html, req())).status).toBe('error');
    const nochoices = await target((_q, res) => void res.writeHead(200).end('{"ok":true}'));
    expect((await sendRequest(nochoices, req({ streaming: false }))).errorMessage).toContain('no "choices"');
    const inband = await target((_q, res) => void res.writeHead(200).end('data: {"error":{"message":"overloaded"}}\n\ndata: [DONE]\n\n'));
    expect(await sendRequest(inband, req())).toMatchObject({ status: 'error', errorMessage: 'server error in stream: overloaded' });
  });
  it('records malformed SSE and a stream without [DONE] as errors', async () => {
    const bad = await target((_q, res) => void res.writeHead(200).end('data: {"choices":[]}\n\ndata: {oops\n\ndata: [DONE]\n\n'));
    const s = await sendRequest(bad, req());
    expect(s.status).toBe('error');
    expect(s.errorMessage).toMatch(/^malformed SSE chunk 2: not JSON/);
    const short = await target((_q, res) => void res.writeHead(200).end('data: {"choices":[]}\n\n'));
    expect((await sendRequest(short, req())).errorMessage).toBe('stream ended after 1 chunks without data: [DONE]');
  });
  it('records a socket closed mid-stream as an error, with the chunks seen so far', async () => {
    const t = await target((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"text":"a","finish_reason":null}]}\n\n', () => setTimeout(() => res.socket?.destroy(), 20));
    });
    const s = await sendRequest(t, req());
    expect(s.status).toBe('error');
    expect(s.numChunks).toBe(1);
    expect(s.errorMessage).not.toBe('');
  });
  it('records a refused connection as an error, and an abort as "aborted"', async () => {
    const t = await target(openAiLike);
    const refused = await sendRequest({ ...t, baseUrl: 'http://127.0.0.1:1' }, req());
    expect(refused.status).toBe('error');
    expect(refused.errorMessage).toMatch(/^HTTP error: /);
    const slow = await target(() => {}); // never answers
    const ac = new AbortController();
    const p = sendRequest(slow, req(), ac.signal);
    setTimeout(() => ac.abort(), 50);
    expect(await p).toMatchObject({ status: 'error', errorMessage: 'aborted' });
  });
  it('times only the chunks that carry tokens: vLLM chat\'s role-only opening chunk, a closing empty delta and the usage chunk do not', async () => {
    const events = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'b' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'length' }] },
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ];
    const t = await target(async (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) {
        res.write(`data: ${JSON.stringify(e)}\n\n`);
        await new Promise((r) => setTimeout(r, 5));
      }
      res.end('data: [DONE]\n\n');
    }, { apiFormat: 'chat' });
    const s = await sendRequest(t, req());
    expect(s).toMatchObject({ status: 'ok', numChunks: 5, outputTokens: 2, finishReason: 'length' });
    expect(s.tokenChunkTimesUs).toHaveLength(2);
    // Chunks 5 ms apart can still arrive in one read on a busy machine (one timestamp): the
    // order is what holds, the two token chunks among five are what this checks.
    expect(s.tokenChunkTimesUs[0]).toBeGreaterThanOrEqual(s.firstChunkTimeUs);
    expect(s.lastChunkTimeUs).toBeGreaterThanOrEqual(s.tokenChunkTimesUs[1]);
  });
});
