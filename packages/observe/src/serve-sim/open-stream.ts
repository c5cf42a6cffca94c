import type { ServerResponse } from 'node:http';
import type { LiveEntry } from './live-simulation.js';
import type { ParsedCompletionRequest } from './openai-request.js';
import { type Usage, errorBody, fullResponse, streamChunk, tokenText, usageChunk } from './openai-response.js';

/** A response in progress: the request, where its tokens stand, and how to finish it. */
export interface OpenStream {
  readonly entry: LiveEntry;
  readonly req: ParsedCompletionRequest;
  readonly res: ServerResponse;
  sent: number;
  text: string;
  readonly finish: string;
  readonly responseId: string;
  readonly created: number;
  readonly usage: Usage;
}

/** {@link flush}'s answer for a response that is over. */
export const DONE = -1;

/**
 * Writes every token of `s` due by `nowUs` and says when the next one is (Infinity: not known
 * yet; the simulation's next event will tell), or {@link DONE}. The response ends at the
 * simulated completion (`endUs`), so that a client's first and last chunks, the usage chunk
 * being the last, measure the simulated TTFT and E2E.
 */
export function flush(s: OpenStream, nowUs: number): number {
  const { entry: e, res } = s;
  if (res.destroyed) return DONE;
  if (e.status === 'failed') {
    // Dropped, rejected or timed out by the simulated server: an error before any token, else a cut stream.
    if (!res.headersSent) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody('the simulated server could not serve this request', 'ServiceUnavailableError', 503)));
    } else res.end();
    return DONE;
  }
  const known = e.dueUs.length;
  let due = s.sent;
  while (due < known && e.dueUs[due] <= nowUs) due++;
  if (due > s.sent) {
    if (s.req.stream) {
      if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let out = '';
      for (let k = s.sent; k < due; k++) out += sse(streamChunk(s.req, s.responseId, s.created, tokenText(k), k === 0, k === e.outputTokens - 1 ? s.finish : null));
      res.write(out);
    } else for (let k = s.sent; k < due; k++) s.text += tokenText(k);
    s.sent = due;
  }
  if (s.sent === e.outputTokens) {
    if (e.status !== 'served') return Number.POSITIVE_INFINITY;
    if (e.endUs > nowUs) return e.endUs;
    if (!s.req.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fullResponse(s.req, s.responseId, s.created, s.text, s.finish, s.usage)));
    } else res.end(`${s.req.includeUsage ? sse(usageChunk(s.req, s.responseId, s.created, s.usage)) : ''}data: [DONE]\n\n`);
    return DONE;
  }
  return s.sent < known ? e.dueUs[s.sent] : Number.POSITIVE_INFINITY;
}

function sse(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}
