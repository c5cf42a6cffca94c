import { PartitionedRng, type RandomStream, type RequestOutcome, type RequestSource, type RequestSpec } from '@blis/engine';
import { type GapSampler, gapSampler } from './arrivals.js';
import { requestBlockHashes } from './block-hashes.js';
import { type LengthSampler, lengthSampler } from './distributions.js';
import type { LoadedSpec } from './spec-load.js';
import type { ClientSpec } from './spec-schema.js';

export interface RequestSourceOptions {
  /** Tokens per KV block, for the prompt block hashes (16). */
  blockSizeTokens?: number;
  /** Overrides the spec's `num_requests`. */
  maxRequests?: number;
  /** Overrides the spec's seed. */
  seed?: number;
  /** Overrides every client's `timeout` (µs after arrival; 0 = no deadline), as BLIS's explicit `--timeout` does. */
  timeoutUs?: number;
}

/** BLIS's deadline for session rounds whose client sets no timeout: 300 s. */
export const DEFAULT_SESSION_TIMEOUT_US = 300_000_000;

/** BLIS's shared prefix length for a group whose first client gives none (or 0). */
const DEFAULT_PREFIX_LENGTH = 50;

interface ClientState {
  spec: ClientSpec;
  index: number;
  rng: RandomStream;
  gap: GapSampler;
  input: LengthSampler;
  output: LengthSampler;
  /** Shared prefix tokens in front of every prompt: the group's length, or 0 outside a group. */
  prefixLength: number;
  /** Next open-loop arrival (µs, fractional). */
  next: number;
  sessions: number;
}

interface Pending {
  time: number;
  seq: number;
  client: number;
  /** Follow-up round of a session, or undefined for an open-loop arrival. */
  round?: { sessionId: string; round: number; contextTokens: number; rounds: number };
}

interface SessionState {
  client: number;
  sessionId: string;
  round: number;
  /** Rounds this session may emit in all (its reservation in the request budget). */
  rounds: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * A lazy request stream for a WorkloadSpec: each client's arrivals come from its own random
 * stream and are merged in time order; multi-turn sessions schedule their next round only when
 * the previous one completes (closed loop, via `onRequestDone`). Memory holds one pending
 * arrival per client plus one per open session, whatever `num_requests` is.
 */
export class SpecRequestSource implements RequestSource {
  private readonly clients: ClientState[];
  private readonly heap: Pending[] = [];
  private readonly sessions = new Map<number, SessionState>();
  private readonly blockSize: number;
  private readonly limit: number;
  private readonly horizon: number;
  private readonly timeoutOverride: number | undefined;
  private emitted = 0;
  private seq = 0;
  /** Follow-up rounds reserved by open sessions and not yet emitted. */
  private reserved = 0;
  /** The budget no longer admits new open-loop arrivals (only reserved rounds remain). */
  private openLoopDone = false;

  constructor(spec: LoadedSpec, opts: RequestSourceOptions = {}) {
    this.blockSize = opts.blockSizeTokens ?? 16;
    this.limit = opts.maxRequests ?? spec.num_requests ?? Number.POSITIVE_INFINITY;
    this.horizon = spec.horizon ?? Number.POSITIVE_INFINITY;
    this.timeoutOverride = opts.timeoutUs;
    const rng = new PartitionedRng(opts.seed ?? spec.seed);
    const totalFraction = spec.clients.reduce((a, c) => a + c.rate_fraction, 0);
    const groupLength = prefixGroupLengths(spec.clients);
    this.clients = spec.clients.map((c, i) => {
      const stream = rng.stream(`workload/client/${c.id}`);
      // Normalise the fraction first: aggregate * fraction can underflow for tiny fractions.
      const rate = spec.aggregate_rate * (c.rate_fraction / totalFraction);
      const st: ClientState = {
        spec: c,
        index: i,
        rng: stream,
        gap: rate > 0 ? gapSampler(c.arrival, rate) : () => Number.POSITIVE_INFINITY,
        input: lengthSampler(c.input_distribution, spec.baseDir),
        output: lengthSampler(c.output_distribution, spec.baseDir),
        prefixLength: c.prefix_group !== undefined ? groupLength.get(c.prefix_group)! : 0,
        next: 0,
        sessions: 0,
      };
      st.next = this.advanceIntoWindow(st, st.gap(stream));
      return st;
    });
    for (const c of this.clients) if (c.next !== Number.POSITIVE_INFINITY) this.push({ time: c.next, seq: this.seq++, client: c.index });
  }

  peekArrivalUs(): number {
    if (!this.openLoopDone && this.emitted + this.reserved >= this.limit) this.closeOpenLoop();
    if (this.heap.length === 0) return Number.POSITIVE_INFINITY;
    const t = Math.floor(this.heap[0].time);
    return t > this.horizon ? Number.POSITIVE_INFINITY : t;
  }

  next(): RequestSpec | undefined {
    if (this.peekArrivalUs() === Number.POSITIVE_INFINITY) return undefined;
    const p = this.pop()!;
    const c = this.clients[p.client];
    const arrival = Math.floor(p.time);
    if (p.round === undefined) {
      // Open loop: schedule this client's next arrival now, so the stream stays in time order.
      const nextTime = this.advanceIntoWindow(c, c.next + c.gap(c.rng));
      c.next = nextTime;
      if (nextTime !== Number.POSITIVE_INFINITY) this.push({ time: nextTime, seq: this.seq++, client: c.index });
    } else {
      this.reserved--;
    }
    return this.emit(c, arrival, p.round);
  }

  onRequestDone(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void {
    const s = this.sessions.get(spec.index);
    if (s === undefined) return;
    this.sessions.delete(spec.index);
    const mt = this.clients[s.client].spec.reasoning?.multi_turn;
    if (mt === undefined || s.round + 1 >= s.rounds) return;
    const nextAt = timeUs + mt.think_time_us;
    if (outcome !== 'completed' || nextAt > this.horizon) {
      // The session ends early: its unused rounds go back to the budget (only future open-loop
      // arrivals can use them, so the stream stays in time order).
      this.reserved -= s.rounds - s.round - 1;
      return;
    }
    const context = mt.context_growth === 'accumulate' ? s.inputTokens + s.outputTokens : 0;
    this.push({ time: nextAt, seq: this.seq++, client: s.client, round: { sessionId: s.sessionId, round: s.round + 1, contextTokens: context, rounds: s.rounds } });
  }

  /**
   * Drops the pending open-loop arrivals once the budget is spent: what remains of
   * `num_requests` belongs to the follow-up rounds of open sessions.
   */
  private closeOpenLoop(): void {
    this.openLoopDone = true;
    const rounds = this.heap.filter((p) => p.round !== undefined);
    this.heap.length = 0;
    for (const p of rounds) this.push(p);
  }

  private emit(c: ClientState, arrival: number, round: Pending['round']): RequestSpec {
    const cs = c.spec;
    const index = this.emitted++;
    const multiTurn = cs.reasoning?.multi_turn;
    let sessionId = '';
    let roundIndex = 0;
    let context = 0;
    let rounds = 0;
    if (multiTurn !== undefined) {
      if (round === undefined) {
        sessionId = `${cs.id}/session-${c.sessions++}`;
        // num_requests counts every round: a new session reserves its follow-ups up front, so
        // sessions started inside the budget can finish (BLIS: ~N/max_rounds whole sessions).
        rounds = Math.min(multiTurn.max_rounds, this.limit - index - this.reserved);
        this.reserved += rounds - 1;
      } else {
        sessionId = round.sessionId;
        roundIndex = round.round;
        context = round.contextTokens;
        rounds = round.rounds;
      }
    }
    const prefixLength = c.prefixLength;
    const fresh = c.input(c.rng);
    // An accumulated context already starts with the prefix; otherwise every round sends it.
    const inputTokens = (roundIndex === 0 || multiTurn?.context_growth === 'none' ? prefixLength : 0) + context + fresh;
    const outputTokens = c.output(c.rng);
    const id = String(index);
    const spec: RequestSpec = {
      index,
      id,
      arrivalUs: arrival,
      inputTokens,
      outputTokens,
      // Without context growth a round's prompt is new content (bar the shared prefix), and
      // its answer is never sent again: hashed as a one-off request.
      ...requestBlockHashes(
        { id, inputTokens, prefixGroup: cs.prefix_group ?? '', prefixLength, sessionId: multiTurn?.context_growth === 'none' ? '' : sessionId },
        outputTokens,
        this.blockSize,
      ),
      clientId: cs.id,
      tenantId: cs.tenant_id,
      sloClass: cs.slo_class,
      sessionId,
      roundIndex,
      prefixGroup: cs.prefix_group ?? '',
      prefixLength,
      streaming: cs.streaming,
      deadlineUs: this.deadline(cs, arrival, multiTurn !== undefined),
      sloTargetUs: cs.slo_target_us,
      networkDelayUs: networkDelay(cs, inputTokens, outputTokens),
    };
    if (sessionId !== '') this.sessions.set(index, { client: c.index, sessionId, round: roundIndex, rounds, inputTokens, outputTokens });
    return spec;
  }

  /** BLIS's deadline rule: an explicit timeout (0 = none) wins; unset, only session rounds get one. */
  private deadline(cs: ClientSpec, arrival: number, session: boolean): number {
    const timeout = this.timeoutOverride ?? cs.timeout ?? (session ? DEFAULT_SESSION_TIMEOUT_US : 0);
    return timeout > 0 ? arrival + timeout : 0;
  }

  /** Moves an arrival time into the client's next active window (or Infinity after the last). */
  private advanceIntoWindow(c: ClientState, t: number): number {
    const windows = c.spec.lifecycle?.windows;
    if (windows === undefined) return t;
    for (const w of windows) {
      if (t < w.start_us) return w.start_us;
      if (t <= w.end_us) return t;
    }
    return Number.POSITIVE_INFINITY;
  }

  private push(p: Pending): void {
    const h = this.heap;
    h.push(p);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop(): Pending | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function before(a: Pending, b: Pending): boolean {
  const ta = Math.floor(a.time);
  const tb = Math.floor(b.time);
  return ta !== tb ? ta < tb : a.seq < b.seq;
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

/** A lazy request stream for a validated spec. */
export function createRequestSource(spec: LoadedSpec, opts: RequestSourceOptions = {}): SpecRequestSource {
  return new SpecRequestSource(spec, opts);
}

/**
 * The shared prefix length of every group, as BLIS resolves it: a group is one token sequence,
 * sized by the first client (in spec order) that names the group; its `prefix_length`, or 50
 * when that is 0. Later clients of the group share that prefix whatever length they give.
 */
function prefixGroupLengths(clients: readonly ClientSpec[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of clients) {
    if (c.prefix_group !== undefined && !out.has(c.prefix_group)) out.set(c.prefix_group, c.prefix_length > 0 ? c.prefix_length : DEFAULT_PREFIX_LENGTH);
  }
  return out;
}
