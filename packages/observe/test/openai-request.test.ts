import { describe, expect, it } from 'vitest';
import { BadRequestError, parseCompletionRequest } from '../src/serve-sim/openai-request.js';

// A bad request body gets a 400 whose message names the field (list positions in brackets), what
// was expected and what was found, never zod's own "Invalid input".

describe('parseCompletionRequest: bad bodies', () => {
  const bad = (api: 'completions' | 'chat', body: unknown) => {
    try {
      parseCompletionRequest(api, body);
    } catch (e) {
      expect(e).toBeInstanceOf(BadRequestError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('names the field, what was expected and what was found', () => {
    expect(bad('chat', { messages: [{ role: 'user', content: 'hi' }, { content: 'x' }] })).toBe('messages[1].role: expected a string, found nothing (the field is missing)');
    expect(bad('chat', { messages: [] })).toBe('messages: expected a list with >= 1 item(s), found an empty list');
    expect(bad('completions', { prompt: 'a', max_tokens: -1 })).toBe('max_tokens: expected a number >= 0, found -1');
    expect(bad('completions', { prompt: 7 })).toBe('prompt: expected a string or a list, found 7');
    expect(bad('completions', 'x'.repeat(500))).toBe(`body: expected a mapping, found "${'x'.repeat(60)}…" (500 characters)`);
  });
});
