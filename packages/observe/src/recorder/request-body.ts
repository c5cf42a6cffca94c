/** Which OpenAI-compatible endpoint a request goes to. */
export type ApiFormat = 'completions' | 'chat';

/** What one request asks of the server, before it is turned into a body and headers. */
export interface OutgoingRequest {
  prompt: string;
  /** The workload's sampled answer length; 0 or less falls back to {@link DEFAULT_MAX_TOKENS}. */
  maxOutputTokens: number;
  streaming: boolean;
  /** Let the server pick the answer length: no `min_tokens`, and no (chat) or a huge (completions) `max_tokens`. */
  unconstrained: boolean;
  tenantId: string;
  sloClass: string;
  /** Per-request TTFT target in µs; 0 = none. */
  sloTargetUs: number;
}

/** BLIS's `max_tokens` when a request has no answer length. */
export const DEFAULT_MAX_TOKENS = 2048;
/** The completions API requires `max_tokens`; an unconstrained request sends Go's MaxInt32. */
const UNCONSTRAINED_COMPLETIONS_MAX = 2147483647;

/**
 * Gateway API Inference Extension priorities per SLO class; vLLM orders the other way (0 is the
 * most urgent), so the body carries `max − class`.
 */
const GAIE_PRIORITY: Readonly<Record<string, number>> = { critical: 4, standard: 3, batch: -1, sheddable: -2, background: -3 };
const GAIE_DEFAULT_PRIORITY = 3;
const GAIE_MAX_PRIORITY = 4;

/** vLLM's `priority` for an SLO class: critical 0, standard 1, batch 5, sheddable 6, background 7, unknown 1. */
export function vllmPriority(sloClass: string): number {
  return GAIE_MAX_PRIORITY - (GAIE_PRIORITY[sloClass] ?? GAIE_DEFAULT_PRIORITY);
}

/** The endpoint path for an API format. */
export function endpointPath(format: ApiFormat): string {
  return format === 'chat' ? '/v1/chat/completions' : '/v1/completions';
}

/** The JSON body BLIS's observe sends, key for key. */
export function requestBody(model: string, format: ApiFormat, r: OutgoingRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model, stream: r.streaming };
  if (!r.unconstrained) body.max_tokens = r.maxOutputTokens > 0 ? r.maxOutputTokens : DEFAULT_MAX_TOKENS;
  else if (format === 'completions') body.max_tokens = UNCONSTRAINED_COMPLETIONS_MAX;
  // min_tokens = max_tokens makes the server generate the sampled length exactly, as `blis run` would.
  if (!r.unconstrained && r.maxOutputTokens > 0) body.min_tokens = r.maxOutputTokens;
  if (format === 'chat') body.messages = [{ role: 'user', content: r.prompt }];
  else body.prompt = r.prompt;
  // Without include_usage a stream carries no token counts.
  if (r.streaming) body.stream_options = { include_usage: true };
  if (r.sloClass !== '') body.priority = vllmPriority(r.sloClass);
  return body;
}

/** The request headers; `requestId` is the x-request-id that joins client records to gateway logs. */
export function requestHeaders(r: OutgoingRequest, requestId: string, apiKey: string): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
  if (apiKey !== '') h.authorization = `Bearer ${apiKey}`;
  if (r.tenantId !== '') h['x-gateway-inference-fairness-id'] = r.tenantId;
  if (r.sloClass !== '') h['x-gateway-inference-objective'] = r.sloClass;
  if (r.sloTargetUs > 0) h['x-slo-ttft-ms'] = String(Math.ceil(r.sloTargetUs / 1000));
  return h;
}
