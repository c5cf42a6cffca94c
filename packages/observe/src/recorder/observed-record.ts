/** How one recorded request ended, as BLIS's `status` column says it. */
export type ObservedStatus = 'ok' | 'error' | 'timeout';

/** What the client saw of one request: BLIS's RequestRecord, with the workload's side beside it. */
export interface ObservedRecord {
  /** Dispatch index: 0, 1, 2, … in send order (warm-up requests included). */
  requestId: number;
  clientId: string;
  tenantId: string;
  sloClass: string;
  /** The `priority` sent in the body (0 when no SLO class). */
  vllmPriority: number;
  sessionId: string;
  roundIndex: number;
  prefixGroup: string;
  /** The group's shared prefix in tokens; 0 outside a group. */
  prefixLength: number;
  streaming: boolean;
  /** The whole prompt in tokens as the workload sampled it (prefix included). */
  inputTokens: number;
  /** `completion_tokens` of the server's usage; 0 when it sent none. */
  outputTokens: number;
  /** `prompt_tokens` of the server's usage; 0 when it sent none. */
  serverInputTokens: number;
  /** Absolute deadline in workload µs; 0 = none. */
  deadlineUs: number;
  sloTargetUs: number;
  /** Workload-relative arrival, µs. */
  arrivalTimeUs: number;
  /** Epoch µs just before the HTTP call. */
  sendTimeUs: number;
  /** Epoch µs of the first SSE chunk (streaming) or the first body byte (not streaming); 0 when none came. */
  firstChunkTimeUs: number;
  lastChunkTimeUs: number;
  numChunks: number;
  status: ObservedStatus;
  errorMessage: string;
  finishReason: string;
  /** The x-request-id header sent. */
  xRequestId: string;
  /** Epoch µs of the chunks that carried generated tokens, for the ITL file. */
  tokenChunkTimesUs: number[];
}
