import type { RequestSpec } from '@blis/engine';
import type { ModalityTokens } from '@blis/policies';
import { type PromptIdentity, requestBlockHashes, sharedPromptBlocks } from './block-hashes.js';
import { WorkloadSpecError } from './errors.js';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';
import { DEFAULT_SESSION_TIMEOUT_US } from './session-timeout.js';
import type { ClientSpec } from './spec-schema.js';

/** BLIS's shared prefix length for a group whose first client gives none (or 0). */
const DEFAULT_PREFIX_LENGTH = 50;

/** A request as drawn, before it is named and hashed. */
export interface DrawnRequest {
  arrival: number;
  /** The whole prompt: shared prefix, session context and the new tokens. */
  inputTokens: number;
  outputTokens: number;
  sessionId: string;
  roundIndex: number;
  /** The shared prefix in front of the prompt (0: none); for the KV hashes and TraceV2's `prefix_length`. */
  prefixLength: number;
  /** The prompt repeats the session's earlier rounds (accumulated context): hashed on the session's stream. */
  sessionContext: boolean;
  /** BLIS's deadline rule for session clients: unset, a default of 300 s. */
  sessionDeadline: boolean;
  /** A multimodal prompt's parts (behind the shared prefix, if any). */
  modalities?: ModalityTokens;
}

export interface BuildOptions {
  blockSize: number;
  file: string;
  timeoutOverride: number | undefined;
  defaultSloClass: string;
}

/** Names, hashes and dresses a drawn request with its client's properties. */
export function buildRequest(d: DrawnRequest, cs: ClientSpec, clientIndex: number, index: number, o: BuildOptions): RequestSpec {
  const id = String(index);
  const { inputTokens, outputTokens } = d;
  if (inputTokens > MAX_TOKENS_PER_REQUEST || outputTokens > MAX_TOKENS_PER_REQUEST) {
    const [field, n] = inputTokens > MAX_TOKENS_PER_REQUEST ? ['input_distribution', inputTokens] : ['output_distribution', outputTokens];
    throw new WorkloadSpecError([{ file: o.file, field: `clients[${clientIndex}].${field}`, expected: `lengths of at most ${MAX_TOKENS_PER_REQUEST} tokens per request`, found: `${n} tokens (request ${id})` }]);
  }
  const prefixGroup = d.prefixLength > 0 ? (cs.prefix_group ?? '') : '';
  const identity: PromptIdentity = { id, inputTokens, prefixGroup, prefixLength: d.prefixLength, sessionId: d.sessionContext ? d.sessionId : '' };
  const spec: RequestSpec = {
    index,
    id,
    arrivalUs: d.arrival,
    inputTokens,
    outputTokens,
    // A round without accumulated context is new content (bar the shared prefix), and its
    // answer is never sent again: hashed as a one-off request.
    ...requestBlockHashes(identity, outputTokens, o.blockSize),
    // Ids are emission numbers, unique in the workload: see sharedPromptBlocks.
    sharedPrefixBlocks: sharedPromptBlocks(identity, o.blockSize),
    clientId: cs.id,
    tenantId: cs.tenant_id,
    sloClass: cs.slo_class ?? o.defaultSloClass,
    sessionId: d.sessionId,
    roundIndex: d.roundIndex,
    prefixGroup,
    prefixLength: prefixGroup === '' ? 0 : d.prefixLength,
    streaming: cs.streaming,
    deadlineUs: deadline(o.timeoutOverride ?? cs.timeout, d.arrival, d.sessionDeadline),
    sloTargetUs: cs.slo_target_us,
    networkDelayUs: networkDelay(cs, inputTokens, outputTokens),
  };
  // Only adapter requests carry the key: LoRA-off specs keep their shape (and their JSON).
  if (cs.adapter !== undefined && cs.adapter !== '') spec.adapter = cs.adapter;
  if (d.modalities !== undefined) spec.modalities = d.modalities;
  if (cs.slo_class === undefined && o.defaultSloClass !== '') spec.unnamedSloClass = true;
  return spec;
}

/** BLIS's computeDeadline: an explicit timeout (0 = none) wins; unset, only session clients get one. */
function deadline(timeout: number | undefined, arrival: number, session: boolean): number {
  const t = timeout ?? (session ? DEFAULT_SESSION_TIMEOUT_US : 0);
  return t > 0 ? arrival + t : 0;
}

/**
 * Client-side network delay added to client-observed latency: the round trip plus the time to
 * move the prompt and the answer at 4 bytes per token over the client's link (1 Mbit/s = 1 bit/µs).
 */
export function networkDelay(c: ClientSpec, inputTokens: number, outputTokens: number): number {
  if (c.network === undefined) return 0;
  const rtt = c.network.rtt_ms * 1000;
  const transfer = c.network.bandwidth_mbps !== undefined ? ((inputTokens + outputTokens) * 4 * 8) / c.network.bandwidth_mbps : 0;
  return Math.round(rtt + transfer);
}

/**
 * The shared prefix length of every group, as BLIS resolves it: a group is one token sequence,
 * sized by the first client (in spec order) that names the group; its `prefix_length`, or 50
 * when that is 0 or unset. Later clients of the group share that prefix whatever length they give.
 */
export function prefixGroupLengths(clients: readonly ClientSpec[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of clients) {
    const own = c.prefix_length ?? 0;
    if (c.prefix_group !== undefined && !out.has(c.prefix_group)) out.set(c.prefix_group, own > 0 ? own : DEFAULT_PREFIX_LENGTH);
  }
  return out;
}
