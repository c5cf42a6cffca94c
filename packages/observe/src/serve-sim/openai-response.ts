import type { ParsedCompletionRequest } from './openai-request.js';

/** The text of the k-th generated token: one word, so the server's own tokenizer counts it as one. */
export function tokenText(k: number): string {
  return ` t${k % 1000}`;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usage(promptTokens: number, completionTokens: number): Usage {
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

/** One streamed chunk carrying `text` (and the finish reason on the last one), as the API shapes it. */
export function streamChunk(req: ParsedCompletionRequest, id: string, created: number, text: string, first: boolean, finish: string | null): unknown {
  if (req.api === 'completions')
    return { id, object: 'text_completion', created, model: req.model, choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] };
  const delta = first ? { role: 'assistant', content: text } : { content: text };
  return { id, object: 'chat.completion.chunk', created, model: req.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

/** The usage-only chunk `stream_options.include_usage` asks for, after the last token. */
export function usageChunk(req: ParsedCompletionRequest, id: string, created: number, u: Usage): unknown {
  return { id, object: req.api === 'completions' ? 'text_completion' : 'chat.completion.chunk', created, model: req.model, choices: [], usage: u };
}

/** The whole answer of a non-streaming request. */
export function fullResponse(req: ParsedCompletionRequest, id: string, created: number, text: string, finish: string, u: Usage): unknown {
  if (req.api === 'completions')
    return { id, object: 'text_completion', created, model: req.model, choices: [{ index: 0, text, logprobs: null, finish_reason: finish }], usage: u };
  return { id, object: 'chat.completion', created, model: req.model, choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: finish }], usage: u };
}

/** An OpenAI-style error body. */
export function errorBody(message: string, type: string, code: number): unknown {
  return { error: { message, type, code } };
}
