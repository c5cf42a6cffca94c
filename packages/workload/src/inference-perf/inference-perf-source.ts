import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';
import { promptBlockHashes, sharedPromptBlocks } from '../block-hashes.js';
import { MinHeap } from '../min-heap.js';
import { DEFAULT_SESSION_TIMEOUT_US } from '../session-timeout.js';
import { type IpArrival, inferencePerfArrivals } from './inference-perf-arrivals.js';
import type { IpPlan } from './inference-perf-plan.js';

export interface InferencePerfSourceOptions {
  seed: number;
  blockSizeTokens: number;
  horizonUs?: number;
  maxRequests?: number;
  /** Every request's deadline after arrival (µs, 0 = none), as BLIS's `--timeout` sets it on each client. */
  timeoutUs?: number;
}

interface FollowUp {
  arrivalUs: number;
  seq: number;
  client: number;
  sessionId: string;
  round: number;
  /** Its number among the run's follow-ups, given when it is made (BLIS's SessionManager id counter). */
  n: number;
}

/**
 * The request stream of an inference-perf spec as BLIS runs it: the generated first arrivals
 * (request ids `request_<n>` in arrival order), and for multi-turn chat the closed loop of BLIS's
 * session manager: when a round completes at `t`, the next one arrives at `t + think time`
 * (id `session_<session>_round_<r>_<n>`, the n-th follow-up made in the run), until the session's
 * rounds are spent; a round that does not complete ends its session. Follow-ups are not capped
 * by `num_requests` (BLIS caps only the first arrivals of closed-loop sessions).
 */
export class InferencePerfSource implements RequestSource {
  private readonly first: IpArrival[];
  private pos = 0;
  private readonly followUps = new MinHeap<FollowUp>(earlier);
  private readonly open = new Map<number, { client: number; sessionId: string; round: number }>();
  private readonly horizon: number;
  private emitted = 0;
  private followUpCount = 0;
  private seq = 0;
  /** No session: completions bring no follow-up (see RequestSource.openLoop). */
  readonly openLoop: boolean;

  constructor(
    private readonly plan: IpPlan,
    private readonly opts: InferencePerfSourceOptions,
  ) {
    this.horizon = opts.horizonUs ?? Number.POSITIVE_INFINITY;
    this.openLoop = plan.clients.every((c) => c.session === undefined);
    this.first = inferencePerfArrivals(plan, opts.seed, this.horizon, opts.maxRequests);
  }

  /** The number of first arrivals (every request when there are no sessions). */
  get firstArrivals(): number {
    return this.first.length;
  }

  peekArrivalUs(): number {
    const a = this.pos < this.first.length ? this.first[this.pos].arrivalUs : Number.POSITIVE_INFINITY;
    const b = this.followUps.peek()?.arrivalUs ?? Number.POSITIVE_INFINITY;
    return Math.min(a, b);
  }

  next(): RequestSpec | undefined {
    const a = this.pos < this.first.length ? this.first[this.pos] : undefined;
    const f = this.followUps.peek();
    if (a === undefined && f === undefined) return undefined;
    if (a !== undefined && (f === undefined || a.arrivalUs <= f.arrivalUs)) {
      this.pos++;
      return this.emit(a.arrivalUs, a.client, a.sessionId, a.round, `request_${this.pos - 1}`);
    }
    const up = this.followUps.pop()!;
    return this.emit(up.arrivalUs, up.client, up.sessionId, up.round, `session_${up.sessionId}_round_${up.round}_${up.n}`);
  }

  onRequestDone(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void {
    const s = this.open.get(spec.index);
    if (s === undefined) return;
    this.open.delete(spec.index);
    const session = this.plan.clients[s.client].session!;
    if (outcome !== 'completed' || s.round >= session.maxRounds - 1) return;
    const arrivalUs = timeUs + session.thinkTimeUs;
    if (arrivalUs > this.horizon) return;
    this.followUps.push({ arrivalUs, seq: this.seq++, client: s.client, sessionId: s.sessionId, round: s.round + 1, n: ++this.followUpCount });
  }

  private emit(arrivalUs: number, client: number, sessionId: string, round: number, id: string): RequestSpec {
    const c = this.plan.clients[client];
    const index = this.emitted++;
    const prefixLength = round > 0 ? this.plan.followUpPrefixLength : this.plan.prefixLength;
    const inputTokens = prefixLength + this.plan.questionLength;
    const timeout = this.opts.timeoutUs ?? (c.session !== undefined ? DEFAULT_SESSION_TIMEOUT_US : 0);
    if (c.session !== undefined) this.open.set(index, { client, sessionId, round });
    return {
      index,
      id,
      arrivalUs,
      inputTokens,
      outputTokens: this.plan.outputLength,
      // Every prompt is the group's system prompt then a fresh question (no context carried over).
      blockHashes: promptBlockHashes({ id, inputTokens, prefixGroup: c.group, prefixLength, sessionId: '' }, this.opts.blockSizeTokens),
      // The source names its requests uniquely, so only the group's system prompt is shared.
      sharedPrefixBlocks: sharedPromptBlocks({ id, inputTokens, prefixGroup: c.group, prefixLength, sessionId: '' }, this.opts.blockSizeTokens),
      clientId: c.id,
      tenantId: c.group,
      sloClass: 'standard',
      sessionId,
      roundIndex: round,
      // BLIS leaves a session round's prefix group unset (its tokens still share the prefix).
      prefixGroup: c.session !== undefined ? '' : c.group,
      prefixLength,
      streaming: false,
      deadlineUs: timeout > 0 ? arrivalUs + timeout : 0,
      sloTargetUs: 0,
      networkDelayUs: 0,
    };
  }
}

function earlier(a: FollowUp, b: FollowUp): boolean {
  return a.arrivalUs !== b.arrivalUs ? a.arrivalUs < b.arrivalUs : a.seq < b.seq;
}
