import { describe, expect, it } from 'vitest';
import { type OutgoingRequest, requestBody, requestHeaders, vllmPriority } from '../src/recorder/request-body.js';

const base: OutgoingRequest = { prompt: 'a b', maxOutputTokens: 7, streaming: true, unconstrained: false, tenantId: '', sloClass: '', sloTargetUs: 0 };

describe('request body', () => {
  it('asks completions for exactly the sampled length, with usage in the stream', () => {
    expect(requestBody('m', 'completions', base)).toEqual({ model: 'm', stream: true, max_tokens: 7, min_tokens: 7, prompt: 'a b', stream_options: { include_usage: true } });
  });
  it('puts the prompt in one user message for chat, and no stream_options without streaming', () => {
    expect(requestBody('m', 'chat', { ...base, streaming: false })).toEqual({ model: 'm', stream: false, max_tokens: 7, min_tokens: 7, messages: [{ role: 'user', content: 'a b' }] });
  });
  it('falls back to 2048 without min_tokens when the length is 0', () => {
    const b = requestBody('m', 'completions', { ...base, maxOutputTokens: 0 });
    expect(b.max_tokens).toBe(2048);
    expect(b).not.toHaveProperty('min_tokens');
  });
  it('unconstrained: MaxInt32 for completions, nothing for chat, never min_tokens', () => {
    const c = requestBody('m', 'completions', { ...base, unconstrained: true });
    expect(c.max_tokens).toBe(2147483647);
    expect(c).not.toHaveProperty('min_tokens');
    const chat = requestBody('m', 'chat', { ...base, unconstrained: true });
    expect(chat).not.toHaveProperty('max_tokens');
    expect(chat).not.toHaveProperty('min_tokens');
  });
  it('maps SLO classes to vLLM priorities (4 − GAIE priority)', () => {
    expect(['critical', 'standard', 'batch', 'sheddable', 'background', 'other'].map(vllmPriority)).toEqual([0, 1, 5, 6, 7, 1]);
    expect(requestBody('m', 'completions', { ...base, sloClass: 'batch' }).priority).toBe(5);
    expect(requestBody('m', 'completions', base)).not.toHaveProperty('priority');
  });
  it('sends the gateway headers only when there is something to say', () => {
    expect(requestHeaders(base, 'id-1', '')).toEqual({ 'content-type': 'application/json', 'x-request-id': 'id-1' });
    expect(requestHeaders({ ...base, tenantId: 't', sloClass: 'critical', sloTargetUs: 1500 }, 'id', 'k')).toEqual({
      'content-type': 'application/json',
      'x-request-id': 'id',
      authorization: 'Bearer k',
      'x-gateway-inference-fairness-id': 't',
      'x-gateway-inference-objective': 'critical',
      // ceil(1500 µs / 1000)
      'x-slo-ttft-ms': '2',
    });
  });
});
