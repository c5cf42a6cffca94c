// @blis/observe: the network side of BLIS, kept out of the simulation packages.

// --- calibrate: pairing, statistics, grades, report ---

// --- recorder: `blis observe` (HTTP client, SSE timing, TraceV2 `mode: real` writer, /metrics scrape) ---
export { observe } from './recorder/observe.js';
export type { ObserveOptions, ObserveResult } from './recorder/observe.js';
export type { ObservedRecord, ObservedStatus } from './recorder/observed-record.js';
export { sendRequest } from './recorder/send-request.js';
export type { HttpTarget, SendOutcome } from './recorder/send-request.js';
export { requestBody, requestHeaders, vllmPriority, endpointPath, DEFAULT_MAX_TOKENS } from './recorder/request-body.js';
export type { ApiFormat, OutgoingRequest } from './recorder/request-body.js';
export { PromptText, tokensPerWord, wordsFor, CALIBRATION_PROMPT, CALIBRATION_WORDS } from './recorder/prompt-text.js';
export { dispatch } from './recorder/dispatch.js';
export type { DispatchPlan, DispatchResult } from './recorder/dispatch.js';
export { parsePrometheusText } from './recorder/prometheus-text.js';
export { scrapeMetrics, observedHitRate } from './recorder/kv-metrics-scrape.js';
export type { HitRateOutcome } from './recorder/kv-metrics-scrape.js';
export { writeRealTrace, realTraceCsv, realTraceHeaderYaml, itlCsv } from './recorder/trace-writer.js';
export type { RealTraceHeader, GoodputTargets } from './recorder/trace-writer.js';
export { parseClassDurations, goodputTargets, goDurationMs } from './recorder/goodput-targets.js';
export { probeServer } from './recorder/probe-server.js';
export { wallMicros } from './recorder/wall-clock.js';

// --- serve-sim: the simulator-backed OpenAI-compatible reference server ---
export { startSimServer, LiveSimulation, PushRequestSource, promptWords, wordBlockHashes } from './serve-sim/index.js';
export type { SimServer, SimServerOptions, LiveEntry, LiveRequest } from './serve-sim/index.js';
