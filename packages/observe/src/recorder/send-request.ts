import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { type Dispatcher, request } from 'undici';
import type { ObservedStatus } from './observed-record.js';
import { type ApiFormat, type OutgoingRequest, endpointPath, requestBody, requestHeaders } from './request-body.js';
import { TokenChunkDetector } from './token-chunk.js';
import { wallMicros } from './wall-clock.js';

/** The server side of every request of a run. */
export interface HttpTarget {
  /** `http://host:port`, without the `/v1/...` path. */
  baseUrl: string;
  model: string;
  apiFormat: ApiFormat;
  apiKey: string;
  /** Connection pool shared by the run (sized to its concurrency). */
  dispatcher: Dispatcher;
  /** Per-request limit from send to the end of the body, ms. */
  timeoutMs: number;
}

/** The client-side timing and counts of one request. */
export interface SendOutcome {
  status: ObservedStatus;
  errorMessage: string;
  xRequestId: string;
  sendTimeUs: number;
  firstChunkTimeUs: number;
  lastChunkTimeUs: number;
  numChunks: number;
  outputTokens: number;
  serverInputTokens: number;
  finishReason: string;
  /** Epoch µs of the chunks that carried generated tokens: text, content, a reasoning, refusal or tool-call delta, or a growing `completion_tokens` (not chat's role-only chunk, not the usage chunk). */
  tokenChunkTimesUs: number[];
}

/** Error bodies go into a CSV cell: enough to diagnose, not a whole HTML page. */
const MAX_ERROR_BODY = 500;

/** A failure the response itself shows (bad JSON, no `choices`, an `error` event): recorded, never thrown out. */
class ResponseError extends Error {}

/**
 * Sends one request and times it. Never rejects: transport failures, non-200 answers, bodies that
 * are not OpenAI completions and malformed streams become `error`, the per-request limit
 * `timeout`, and `signal` (the run being stopped) an `error` reading "aborted".
 */
export async function sendRequest(target: HttpTarget, req: OutgoingRequest, signal?: AbortSignal): Promise<SendOutcome> {
  const out: SendOutcome = {
    status: 'ok',
    errorMessage: '',
    xRequestId: randomUUID(),
    sendTimeUs: 0,
    firstChunkTimeUs: 0,
    lastChunkTimeUs: 0,
    numChunks: 0,
    outputTokens: 0,
    serverInputTokens: 0,
    finishReason: '',
    tokenChunkTimesUs: [],
  };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete answer within ${target.timeoutMs} ms`));
  }, target.timeoutMs);
  const onAbort = () => controller.abort(new Error('aborted'));
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const body = JSON.stringify(requestBody(target.model, target.apiFormat, req));
  const headers = requestHeaders(req, out.xRequestId, target.apiKey);
  out.sendTimeUs = wallMicros();
  try {
    const res = await request(`${target.baseUrl}${endpointPath(target.apiFormat)}`, {
      method: 'POST',
      headers,
      body,
      dispatcher: target.dispatcher,
      signal: controller.signal,
    });
    if (res.statusCode !== 200) {
      const text = await res.body.text();
      throw new ResponseError(`HTTP ${res.statusCode}: ${text.length > MAX_ERROR_BODY ? `${text.slice(0, MAX_ERROR_BODY)}…` : text}`);
    }
    if (req.streaming) await readStream(res.body, out);
    else await readWhole(res.body, out);
  } catch (e) {
    out.status = timedOut ? 'timeout' : 'error';
    out.errorMessage = timedOut ? `timeout: no complete answer within ${target.timeoutMs} ms` : signal?.aborted === true ? 'aborted' : describe(e);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return out;
}

function describe(e: unknown): string {
  if (e instanceof ResponseError) return e.message;
  const err = e as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const code = err.cause?.code ?? err.code;
  const msg = err.cause?.message ?? err.message ?? String(e);
  return `HTTP error: ${code !== undefined && !msg.includes(code) ? `${code} ` : ''}${msg}`;
}

/** Token counts of an OpenAI `usage` object; absent or non-numeric fields stay 0. */
function takeUsage(usage: unknown, out: SendOutcome): void {
  if (typeof usage !== 'object' || usage === null) return;
  const u = usage as Record<string, unknown>;
  if (typeof u.completion_tokens === 'number') out.outputTokens = Math.trunc(u.completion_tokens);
  if (typeof u.prompt_tokens === 'number') out.serverInputTokens = Math.trunc(u.prompt_tokens);
}

/** The finish_reason of `choices[0]`, or '' when there is none. */
function finishReason(choices: unknown): string {
  if (!Array.isArray(choices) || choices.length === 0) return '';
  const c = choices[0] as { finish_reason?: unknown } | null;
  return typeof c?.finish_reason === 'string' ? c.finish_reason : '';
}

/** An `{"error": ...}` payload's message (vLLM and OpenAI report failures in-band this way). */
function inBandError(o: Record<string, unknown>): string | undefined {
  if (o.error === undefined || o.error === null) return undefined;
  const e = o.error as { message?: unknown } | string;
  return typeof e === 'string' ? e : typeof e.message === 'string' ? e.message : JSON.stringify(o.error);
}

/**
 * Non-streaming: the first body byte and the end of the body stand for the first and last
 * chunk. A server sends the whole answer once it is done, so this is no TTFT.
 */
async function readWhole(body: AsyncIterable<Buffer>, out: SendOutcome): Promise<void> {
  const parts: Buffer[] = [];
  for await (const chunk of body) {
    if (out.firstChunkTimeUs === 0 && chunk.length > 0) out.firstChunkTimeUs = wallMicros();
    parts.push(chunk);
  }
  out.lastChunkTimeUs = wallMicros();
  if (out.firstChunkTimeUs === 0) out.firstChunkTimeUs = out.lastChunkTimeUs;
  out.numChunks = 1;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch (e) {
    throw new ResponseError(`JSON parse error: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ResponseError('response is not a JSON object');
  const o = parsed as Record<string, unknown>;
  const err = inBandError(o);
  if (err !== undefined) throw new ResponseError(`server error: ${err}`);
  if (!Array.isArray(o.choices)) throw new ResponseError('response has no "choices": not an OpenAI completion');
  takeUsage(o.usage, out);
  out.finishReason = finishReason(o.choices);
}

/**
 * Streaming: every SSE event but `[DONE]` is one chunk, stamped when the network read that
 * completed it arrived; as in BLIS, `num_chunks` and the first and last chunk times count them
 * all (the final usage-only event included). The ITL times keep only the chunks that carry
 * tokens. Token counts come from the last `usage`; the finish reason is the last non-empty one.
 * A stream that ends before `[DONE]`, or carries a line or payload that is not SSE JSON, is an error.
 */
async function readStream(body: AsyncIterable<Buffer> & { destroy?: () => void }, out: SendOutcome): Promise<void> {
  let now = 0;
  let done = false;
  let failure: string | undefined;
  const tokens = new TokenChunkDetector();
  const parser = createParser({
    onEvent(ev) {
      if (done || failure !== undefined) return;
      if (ev.data === '[DONE]') {
        done = true;
        return;
      }
      out.numChunks++;
      if (out.numChunks === 1) out.firstChunkTimeUs = now;
      out.lastChunkTimeUs = now;
      let o: unknown;
      try {
        o = JSON.parse(ev.data);
      } catch {
        failure = `malformed SSE chunk ${out.numChunks}: not JSON: ${JSON.stringify(ev.data.slice(0, 80))}`;
        return;
      }
      if (typeof o !== 'object' || o === null) {
        failure = `malformed SSE chunk ${out.numChunks}: not a JSON object`;
        return;
      }
      const chunk = o as Record<string, unknown>;
      const err = inBandError(chunk);
      if (err !== undefined) {
        failure = `server error in stream: ${err}`;
        return;
      }
      if (tokens.carriesTokens(chunk)) out.tokenChunkTimesUs.push(now);
      if (chunk.usage !== undefined && chunk.usage !== null) takeUsage(chunk.usage, out);
      const fr = finishReason(chunk.choices);
      if (fr !== '') out.finishReason = fr;
    },
    onError(e) {
      failure ??= `malformed SSE: ${e.message}`;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    now = wallMicros();
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (done || failure !== undefined) break;
  }
  if (failure !== undefined) throw new ResponseError(failure);
  if (!done) throw new ResponseError(out.numChunks === 0 ? 'stream carried no SSE data (not an OpenAI stream?)' : `stream ended after ${out.numChunks} chunks without data: [DONE]`);
}
