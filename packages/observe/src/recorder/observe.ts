import type { RequestSource, RequestSpec } from '@blis/engine';
import type { TraceObservedKVMetrics } from '@blis/workload';
import { setMaxListeners } from 'node:events';
import { Agent } from 'undici';
import { type ClosedLoop, dispatch, sleep } from './dispatch.js';
import { observedHitRate, scrapeMetrics } from './kv-metrics-scrape.js';
import type { ObservedRecord } from './observed-record.js';
import { CALIBRATION_PROMPT, CALIBRATION_WORDS, PromptText, tokensPerWord } from './prompt-text.js';
import { type ApiFormat, type OutgoingRequest, vllmPriority } from './request-body.js';
import { type HttpTarget, type SendOutcome, sendRequest } from './send-request.js';

export interface ObserveOptions {
  /** `http://host:port` of an OpenAI-compatible server (a trailing `/` is ignored). */
  serverUrl: string;
  /** The `model` of every request body. */
  model: string;
  /** The workload, as `blis run` would generate it. */
  source: RequestSource;
  /** Seeds the prompt text (the workload's seed, so one spec gives one set of prompts). */
  seed: number;
  apiFormat?: ApiFormat;
  apiKey?: string;
  /** Requests in flight at most (256). */
  maxConcurrency?: number;
  /** The first N dispatches are sent but not recorded (0). */
  warmupRequests?: number;
  /** Send every request without streaming, whatever the workload says. */
  noStreaming?: boolean;
  /** Stream every request, whatever the workload says (ITL recording needs chunks). */
  forceStreaming?: boolean;
  /** No min_tokens, and no (chat) or an unbounded (completions) max_tokens. */
  unconstrainedOutput?: boolean;
  /** Per-request limit, ms (300000). */
  timeoutMs?: number;
  /** Closed loop instead of the source's arrival times. */
  closedLoop?: ClosedLoop;
  /** Before the measured window: small fixed requests at concurrency 4 for this long, ms (0 = none). */
  prewarmMs?: number;
  /** Scrape Prometheus metrics at the window's start and end for the observed KV hit rate. */
  kvMetrics?: { url?: string; vllmCommit?: string };
  /** Stops dispatch; requests in flight end as `error` "aborted". */
  signal?: AbortSignal;
  /** After each answer: requests answered so far (warm-up included). */
  onProgress?: (answered: number) => void;
  /** Non-fatal problems (calibration fallback, a failed scrape), one line each. */
  onWarning?: (message: string) => void;
}

export interface ObserveResult {
  /** Recorded requests (warm-up excluded), in request_id order. */
  records: ObservedRecord[];
  /** Requests sent, warm-up included. */
  sent: number;
  /** Measured once before the run; 1 when the server gave no usable count. */
  tokensPerWord: number;
  observedKvMetrics?: TraceObservedKVMetrics;
  /** The signal stopped the run before the workload was exhausted. */
  aborted: boolean;
}

/**
 * The run's own copy of the caller's signal: every request in flight listens to it, and Node
 * warns (on stderr, mid-run) past 10 listeners on one signal.
 */
function ownSignal(outer: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose: () => void } {
  if (outer === undefined) return { signal: undefined, dispose: () => {} };
  const own = new AbortController();
  setMaxListeners(0, own.signal);
  const forward = () => own.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  // A caller reusing one signal for many runs must not collect a listener per run.
  return { signal: own.signal, dispose: () => outer.removeEventListener('abort', forward) };
}

/** The calibration request's limit: BLIS gives it 30 s. */
const CALIBRATION_TIMEOUT_MS = 30_000;

/**
 * Records a real server: measures tokens per word, optionally prewarms, scrapes /metrics, sends
 * the workload at its arrival times (or as a closed loop), and returns one record per request.
 * Per-request failures are records; only the caller's abort ends a run early.
 */
export async function observe(o: ObserveOptions): Promise<ObserveResult> {
  const baseUrl = o.serverUrl.replace(/\/+$/, '');
  const maxConcurrency = o.maxConcurrency ?? 256;
  // One connection per request in flight, plus one for the scrapes.
  const agent = new Agent({ connections: maxConcurrency + 1, headersTimeout: 0, bodyTimeout: 0 });
  const warn = o.onWarning ?? (() => {});
  const { signal, dispose } = ownSignal(o.signal);
  const target: HttpTarget = { baseUrl, model: o.model, apiFormat: o.apiFormat ?? 'completions', apiKey: o.apiKey ?? '', dispatcher: agent, timeoutMs: o.timeoutMs ?? 300_000 };
  try {
    const ratio = await calibrate({ ...target, timeoutMs: Math.min(target.timeoutMs, CALIBRATION_TIMEOUT_MS) }, warn, signal);
    if ((o.prewarmMs ?? 0) > 0 && signal?.aborted !== true) await prewarm(target, o.prewarmMs!, warn, signal);
    const metricsUrl = o.kvMetrics?.url ?? `${baseUrl}/metrics`;
    let scrapeStart: Map<string, number> | undefined;
    if (o.kvMetrics !== undefined) {
      try {
        scrapeStart = await scrapeMetrics(metricsUrl, target.apiKey, agent, CALIBRATION_TIMEOUT_MS);
      } catch (e) {
        warn(`--scrape-kv-metrics: the start-of-window scrape failed (${(e as Error).message}); the observed KV hit rate is left out`);
      }
    }
    const prompts = new PromptText(o.seed, ratio);
    let answered = 0;
    const { records, sent } = await dispatch({
      source: o.source,
      maxConcurrency,
      warmupRequests: o.warmupRequests ?? 0,
      closedLoop: o.closedLoop,
      signal,
      send: async (spec, index, arrivalUs) => {
        const streaming = o.forceStreaming === true || (spec.streaming && o.noStreaming !== true);
        const req: OutgoingRequest = {
          prompt: prompts.prompt(spec.id, spec.inputTokens, spec.prefixGroup, spec.prefixLength),
          maxOutputTokens: spec.outputTokens,
          streaming,
          unconstrained: o.unconstrainedOutput === true,
          tenantId: spec.tenantId,
          sloClass: spec.sloClass,
          sloTargetUs: spec.sloTargetUs,
        };
        return toRecord(spec, index, arrivalUs, streaming, await sendRequest(target, req, signal));
      },
      onDone: () => o.onProgress?.(++answered),
    });
    let observedKvMetrics: TraceObservedKVMetrics | undefined;
    if (scrapeStart !== undefined) {
      try {
        const end = await scrapeMetrics(metricsUrl, target.apiKey, agent, CALIBRATION_TIMEOUT_MS);
        const r = observedHitRate(scrapeStart, end, o.kvMetrics?.vllmCommit ?? '');
        if (r.ok) observedKvMetrics = r.metrics;
        else warn(`--scrape-kv-metrics: ${r.reason}; the observed KV hit rate is left out`);
      } catch (e) {
        warn(`--scrape-kv-metrics: the end-of-window scrape failed (${(e as Error).message}); the observed KV hit rate is left out`);
      }
    }
    return { records, sent, tokensPerWord: ratio, observedKvMetrics, aborted: signal?.aborted === true };
  } finally {
    dispose();
    await agent.close();
  }
}

function toRecord(spec: RequestSpec, index: number, arrivalUs: number, streaming: boolean, s: SendOutcome): ObservedRecord {
  return {
    requestId: index,
    clientId: spec.clientId,
    tenantId: spec.tenantId,
    sloClass: spec.sloClass,
    vllmPriority: spec.sloClass !== '' ? vllmPriority(spec.sloClass) : 0,
    sessionId: spec.sessionId,
    roundIndex: spec.roundIndex,
    prefixGroup: spec.prefixGroup,
    prefixLength: spec.prefixGroup !== '' ? spec.prefixLength : 0,
    streaming,
    inputTokens: spec.inputTokens,
    outputTokens: s.outputTokens,
    serverInputTokens: s.serverInputTokens,
    deadlineUs: spec.deadlineUs,
    sloTargetUs: spec.sloTargetUs,
    arrivalTimeUs: Math.floor(arrivalUs),
    sendTimeUs: s.sendTimeUs,
    firstChunkTimeUs: s.firstChunkTimeUs,
    lastChunkTimeUs: s.lastChunkTimeUs,
    numChunks: s.numChunks,
    status: s.status,
    errorMessage: s.errorMessage,
    finishReason: s.finishReason,
    xRequestId: s.xRequestId,
    tokenChunkTimesUs: s.tokenChunkTimesUs,
  };
}

/** One non-streaming request of the whole vocabulary with max_tokens 1: the server's prompt_tokens per word. */
async function calibrate(target: HttpTarget, warn: (m: string) => void, signal?: AbortSignal): Promise<number> {
  const s = await sendRequest(target, calibrationRequest(CALIBRATION_PROMPT, 1), signal);
  if (s.status !== 'ok') {
    warn(`tokens-per-word calibration failed (${s.errorMessage}); using 1 token per word`);
    return 1;
  }
  const ratio = tokensPerWord(s.serverInputTokens);
  const raw = s.serverInputTokens / CALIBRATION_WORDS;
  if (!(raw >= 1 && raw <= 3)) warn(`tokens-per-word calibration: ${s.serverInputTokens} prompt tokens for ${CALIBRATION_WORDS} words is outside 1 to 3 per word; using 1 token per word`);
  return ratio;
}

function calibrationRequest(prompt: string, maxOutputTokens: number): OutgoingRequest {
  return { prompt, maxOutputTokens, streaming: false, unconstrained: false, tenantId: '', sloClass: '', sloTargetUs: 0 };
}

/**
 * BLIS's prewarm: 4 workers send a 256-word prompt for 64 tokens, without streaming, until the
 * time is up; a worker whose request fails pauses 500 ms. Nothing is recorded.
 */
async function prewarm(target: HttpTarget, ms: number, warn: (m: string) => void, signal?: AbortSignal): Promise<void> {
  const stop = AbortSignal.any([AbortSignal.timeout(ms), ...(signal !== undefined ? [signal] : [])]);
  const req = calibrationRequest('warm '.repeat(256), 64);
  let sent = 0;
  let failed = 0;
  const worker = async () => {
    while (!stop.aborted) {
      const s = await sendRequest(target, req, stop);
      if (stop.aborted) return;
      sent++;
      if (s.status !== 'ok') {
        failed++;
        await sleep(500, stop);
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  if (sent > 0 && failed === sent) warn(`prewarm: all ${sent} requests failed`);
}
