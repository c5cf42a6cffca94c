import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';
import { type GapSampler, gapSampler } from './arrivals.js';
import { WindowCursor, clientRatesPerUs, drawTokenIds, inActiveWindow, lastWindowEnd } from './blis-draws.js';
import { requestBlockHashes } from './block-hashes.js';
import { type DistributionSpec, type LengthSampler, lengthSampler } from './distributions.js';
import { GoRand } from './go-rand/go-rand.js';
import { goSubsystemRand } from './go-rand/partitioned-rng.js';
import { WorkloadSpecError } from './errors.js';
import { InferencePerfSource } from './inference-perf/inference-perf-source.js';
import { MinHeap } from './min-heap.js';
import { DEFAULT_SESSION_TIMEOUT_US } from './session-timeout.js';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';
import type { LoadedSpec } from './spec-load.js';
import { type ClientSpec, DEFAULT_SLO_CLASS, hasWindowOverrides } from './spec-schema.js';
import { plannedWindow } from './window-rate.js';

export interface RequestSourceOptions {
  /** Tokens per KV block, for the prompt block hashes (16). */
  blockSizeTokens?: number;
  /** Overrides the spec's `num_requests`. */
  maxRequests?: number;
  /** Overrides the spec's seed. */
  seed?: number;
  /** Overrides every client's `timeout` (µs after arrival; 0 = no deadline), as BLIS's explicit `--timeout` does. */
  timeoutUs?: number;
  /** The spec's file, named when a request it generates is refused (default: "workload spec"). */
  file?: string;
  /** The SLO class of a client that names none ({@link DEFAULT_SLO_CLASS}; `blis observe` gives '': no class). */
  defaultSloClass?: string;
}

export { DEFAULT_SESSION_TIMEOUT_US };

/** BLIS's shared prefix length for a group whose first client gives none (or 0). */
const DEFAULT_PREFIX_LENGTH = 50;

interface ClientState {
  spec: ClientSpec;
  index: number;
  /** The client's own Go generator (seeded from BLIS's `workload-gen` stream); undefined for a client that sends nothing. */
  rng: GoRand | undefined;
  gap: GapSampler;
  input: LengthSampler;
  output: LengthSampler;
  /** Shared prefix tokens in front of every prompt: the group's length, or 0 outside a group. */
  prefixLength: number;
  /** Arrival of the client's pending open-loop request (whole µs). */
  time: number;
  sessions: number;
}

/** Prompt and answer length samplers: a client's own, or a window's overrides. */
interface Lengths {
  input: LengthSampler;
  output: LengthSampler;
}

interface Pending {
  time: number;
  /**
   * Order among arrivals at the same µs: BLIS sorts its generated requests stably, so ties keep
   * client order (then window order); the follow-up rounds of sessions come after them, in the
   * order they were made.
   */
  rank: number;
  seq: number;
  client: number;
  /** Follow-up round of a session, or undefined for an open-loop arrival. */
  round?: { sessionId: string; round: number; contextTokens: number; rounds: number; rng: GoRand };
  /** The window (index into `windows`) of an arrival from the per-window generator. */
  window?: number;
}

interface SessionState {
  client: number;
  sessionId: string;
  round: number;
  /** Rounds this session may emit in all (its reservation in the request budget). */
  rounds: number;
  inputTokens: number;
  outputTokens: number;
  /** The session's own generator, for its follow-up rounds. */
  rng: GoRand;
}

/**
 * A lazy request stream for a WorkloadSpec, drawn as BLIS HEAD's generator draws it
 * (sim/workload/generator.go): Go's math/rand, its `workload-gen` stream drawing first the tokens
 * of every prefix group, then one seed per sending client; each client's generator draws a gap,
 * then the request's prompt and answer lengths and their tokens, then the next gap. Clients are
 * merged in time order, ties in client order, as BLIS's stable sort leaves them. Multi-turn
 * sessions schedule their next round only when the previous one completes (closed loop, via
 * `onRequestDone`). Memory holds one pending arrival per client (per lifecycle window on the
 * per-window generator) plus one per open session, whatever `num_requests` is.
 */
export class SpecRequestSource implements RequestSource {
  private readonly clients: ClientState[];
  /** Per-window generation (any window has overrides); empty otherwise. */
  private readonly windows: WindowCursor[] = [];
  /** Per client, its windows in spec order when they run one after another on the client's stream. */
  private readonly windowQueues = new Map<number, WindowCursor[]>();
  private readonly heap = new MinHeap<Pending>(before);
  private readonly sessions = new Map<number, SessionState>();
  private readonly blockSize: number;
  private readonly file: string;
  private readonly limit: number;
  private readonly horizon: number;
  private readonly timeoutOverride: number | undefined;
  private readonly defaultSloClass: string;
  private readonly seed: bigint;
  /** Seeds of the sessions' generators, one per session in the order sessions start. */
  private followUpSeeds: GoRand | undefined;
  private emitted = 0;
  private seq = 0;
  /** Follow-up rounds reserved by open sessions and not yet emitted. */
  private reserved = 0;
  /** The budget no longer admits new open-loop arrivals (only reserved rounds remain). */
  private openLoopDone = false;

  constructor(spec: LoadedSpec, opts: RequestSourceOptions = {}) {
    this.blockSize = opts.blockSizeTokens ?? 16;
    this.file = opts.file ?? 'workload spec';
    this.limit = opts.maxRequests ?? spec.num_requests ?? Number.POSITIVE_INFINITY;
    this.horizon = spec.horizon ?? Number.POSITIVE_INFINITY;
    this.timeoutOverride = opts.timeoutUs;
    this.defaultSloClass = opts.defaultSloClass ?? DEFAULT_SLO_CLASS;
    this.seed = BigInt(opts.seed ?? spec.seed);
    const workload = goSubsystemRand(this.seed, 'workload-gen');
    const groupLength = prefixGroupLengths(spec.clients);
    // The shared prefixes come first from the workload stream, a group at a time in spec order.
    for (const length of groupLength.values()) drawTokenIds(workload, length);
    // As in BLIS, one window with an override puts the whole spec on the per-window generator.
    const perWindow = spec.clients.some((c) => c.lifecycle?.windows.some(hasWindowOverrides) === true);
    const rates = clientRatesPerUs(spec);
    this.clients = spec.clients.map((c, i) => {
      // A client that sends nothing draws no seed (BLIS skips it before drawing).
      const sends = perWindow ? c.lifecycle !== undefined : rates[i] > 0;
      return {
        spec: c,
        index: i,
        rng: sends ? GoRand.fromSeed(workload.int63()) : undefined,
        gap: gapSampler(c.arrival, rates[i]),
        input: lengthSampler(c.input_distribution, spec.baseDir),
        output: lengthSampler(c.output_distribution, spec.baseDir),
        prefixLength: c.prefix_group !== undefined ? groupLength.get(c.prefix_group)! : 0,
        time: 0,
        sessions: 0,
      };
    });
    if (perWindow) {
      this.buildWindows(spec);
      return;
    }
    for (const c of this.clients) this.pushOpenLoop(c);
  }

  /**
   * The windows of the per-window generator, in client then window order (BLIS's
   * generateTimeVaryingRequests): a window starting at or after the horizon is skipped, one
   * ending after it is cut there, and one whose rate is 0 sends nothing. A client's windows share
   * its stream in spec order; when they also follow each other in time they run one after
   * another, otherwise each starts from where a dry run of the ones before it left the stream.
   */
  private buildWindows(spec: LoadedSpec): void {
    spec.clients.forEach((c, ci) => {
      const rng = this.clients[ci].rng;
      if (rng === undefined || c.lifecycle === undefined) return;
      const cursors: WindowCursor[] = [];
      for (const w of c.lifecycle.windows) {
        const planned = plannedWindow(spec, c, w, this.horizon);
        if (planned === undefined) continue;
        const client = this.clients[ci];
        cursors.push(
          new WindowCursor(
            ci,
            this.windows.length + cursors.length,
            w.start_us,
            planned.end,
            planned.count,
            gapSampler(w.arrival ?? c.arrival, planned.rate / 1e6),
            w.input_distribution !== undefined ? lengthSampler(w.input_distribution, spec.baseDir) : client.input,
            w.output_distribution !== undefined ? lengthSampler(w.output_distribution, spec.baseDir) : client.output,
          ),
        );
      }
      this.windows.push(...cursors);
      const sequential = cursors.every((w, k) => k === 0 || w.start >= cursors[k - 1].end);
      if (sequential) {
        if (cursors.length === 0) return;
        this.windowQueues.set(ci, cursors.slice(1));
        cursors[0].begin(rng);
        this.pushWindowArrival(cursors[0]);
        return;
      }
      const cur = rng.clone();
      for (const w of cursors) {
        const start = cur.clone();
        // A dry run moves `cur` past this window's gaps, lengths and tokens, to where the next window starts.
        w.begin(cur);
        while (w.nextArrival() !== undefined) drawTokenIds(cur, w.input(cur) + w.output(cur));
        w.begin(start);
      }
    });
    for (const w of this.windows) if (!this.windowQueues.has(w.client) && w.rng !== undefined) this.pushWindowArrival(w);
  }

  /** Queues a window's next arrival; a finished window hands the client's stream to its next one. */
  private pushWindowArrival(w: WindowCursor): void {
    const t = w.nextArrival();
    if (t !== undefined) {
      this.heap.push({ time: t, rank: w.order, seq: this.seq++, client: w.client, window: w.order });
      return;
    }
    const queue = this.windowQueues.get(w.client);
    const next = queue?.shift();
    if (next === undefined) return;
    next.begin(w.rng!);
    this.pushWindowArrival(next);
  }

  /**
   * Draws a client's next open-loop arrival, BLIS's loop: a gap, and an arrival at or after the
   * horizon ends the client; outside its lifecycle windows the arrival is dropped (no lengths are
   * drawn for it), and one after the last window ends the client.
   */
  private pushOpenLoop(c: ClientState): void {
    const rng = c.rng;
    if (rng === undefined) return;
    const windows = c.spec.lifecycle?.windows;
    for (;;) {
      c.time += c.gap(rng);
      if (c.time >= this.horizon) return;
      if (windows !== undefined && !inActiveWindow(c.time, windows)) {
        if (c.time >= lastWindowEnd(windows)) return;
        continue;
      }
      this.heap.push({ time: c.time, rank: c.index, seq: this.seq++, client: c.index });
      return;
    }
  }

  peekArrivalUs(): number {
    if (!this.openLoopDone && this.emitted + this.reserved >= this.limit) this.closeOpenLoop();
    return this.heap.peek()?.time ?? Number.POSITIVE_INFINITY;
  }

  next(): RequestSpec | undefined {
    if (this.peekArrivalUs() === Number.POSITIVE_INFINITY) return undefined;
    const p = this.heap.pop()!;
    const c = this.clients[p.client];
    if (p.window !== undefined) {
      const w = this.windows[p.window];
      const spec = this.emit(c, p.time, undefined, w, w.rng!);
      this.pushWindowArrival(w);
      return spec;
    }
    if (p.round !== undefined) {
      this.reserved--;
      return this.emit(c, p.time, p.round, c, p.round.rng);
    }
    // Open loop: the request's lengths and tokens are drawn before the client's next gap, as in BLIS.
    const spec = this.emit(c, p.time, undefined, c, c.rng!);
    this.pushOpenLoop(c);
    return spec;
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
    this.heap.push({
      time: nextAt,
      rank: Number.MAX_SAFE_INTEGER,
      seq: this.seq++,
      client: s.client,
      round: { sessionId: s.sessionId, round: s.round + 1, contextTokens: context, rounds: s.rounds, rng: s.rng },
    });
  }

  /**
   * Drops the pending open-loop arrivals once the budget is spent: what remains of
   * `num_requests` belongs to the follow-up rounds of open sessions.
   */
  private closeOpenLoop(): void {
    this.openLoopDone = true;
    this.heap.retain((p) => p.round !== undefined);
  }

  /**
   * The draws BLIS makes on a client's stream when a multi-turn session starts
   * (GenerateReasoningRequests): the session id's Int63, then for every round its lengths, their
   * tokens and its reason ratio. Only round 0's lengths are used; BLIS places the later rounds
   * open loop and then replaces them by closed-loop follow-ups drawn from a stream of their own.
   */
  private startSession(rng: GoRand, lengths: Lengths, cs: ClientSpec, rounds: number): { input: number; output: number } {
    rng.int63();
    const reason = cs.reasoning?.reason_ratio_distribution;
    const reasonSampler = reason !== undefined ? lengthSampler(reason as DistributionSpec) : undefined;
    const input = lengths.input(rng);
    const output = lengths.output(rng);
    for (let r = 0; r < rounds; r++) {
      const [i, o] = r === 0 ? [input, output] : [lengths.input(rng), lengths.output(rng)];
      drawTokenIds(rng, i + o);
      reasonSampler?.(rng);
    }
    return { input, output };
  }

  private emit(c: ClientState, arrival: number, round: Pending['round'], lengths: Lengths, rng: GoRand): RequestSpec {
    const cs = c.spec;
    const index = this.emitted++;
    const multiTurn = cs.reasoning?.multi_turn;
    let sessionId = '';
    let roundIndex = 0;
    let context = 0;
    let rounds = 0;
    let sessionRng = rng;
    let fresh: number;
    let outputTokens: number;
    if (multiTurn !== undefined && round === undefined) {
      sessionId = `${cs.id}/session-${c.sessions++}`;
      // num_requests counts every round: a new session reserves its follow-ups up front, so
      // sessions started inside the budget can finish (BLIS: ~N/max_rounds whole sessions).
      rounds = Math.min(multiTurn.max_rounds, this.limit - index - this.reserved);
      this.reserved += rounds - 1;
      ({ input: fresh, output: outputTokens } = this.startSession(rng, lengths, cs, multiTurn.max_rounds));
      // Follow-up rounds draw from the session's own generator (BLIS: seeded from spec seed + 7919).
      this.followUpSeeds ??= GoRand.fromSeed(this.seed + 7919n);
      sessionRng = GoRand.fromSeed(this.followUpSeeds.int63());
    } else {
      if (round !== undefined) {
        sessionId = round.sessionId;
        roundIndex = round.round;
        context = round.contextTokens;
        rounds = round.rounds;
      }
      fresh = lengths.input(rng);
      outputTokens = lengths.output(rng);
      drawTokenIds(rng, fresh + outputTokens);
    }
    const prefixLength = c.prefixLength;
    // An accumulated context already starts with the prefix; otherwise every round sends it.
    const inputTokens = (roundIndex === 0 || multiTurn?.context_growth === 'none' ? prefixLength : 0) + context + fresh;
    const id = String(index);
    if (inputTokens > MAX_TOKENS_PER_REQUEST || outputTokens > MAX_TOKENS_PER_REQUEST) {
      const [field, n] = inputTokens > MAX_TOKENS_PER_REQUEST ? ['input_distribution', inputTokens] : ['output_distribution', outputTokens];
      throw new WorkloadSpecError([{ file: this.file, field: `clients[${c.index}].${field}`, expected: `lengths of at most ${MAX_TOKENS_PER_REQUEST} tokens per request`, found: `${n} tokens (request ${id})` }]);
    }
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
      sloClass: cs.slo_class ?? this.defaultSloClass,
      sessionId,
      roundIndex,
      prefixGroup: cs.prefix_group ?? '',
      prefixLength,
      streaming: cs.streaming,
      deadlineUs: this.deadline(cs, arrival, multiTurn !== undefined),
      sloTargetUs: cs.slo_target_us,
      networkDelayUs: networkDelay(cs, inputTokens, outputTokens),
    };
    // Only adapter requests carry the key: LoRA-off specs keep their shape (and their JSON).
    if (cs.adapter !== undefined && cs.adapter !== '') spec.adapter = cs.adapter;
    if (sessionId !== '') this.sessions.set(index, { client: c.index, sessionId, round: roundIndex, rounds, inputTokens, outputTokens, rng: sessionRng });
    return spec;
  }

  /** BLIS's deadline rule: an explicit timeout (0 = none) wins; unset, only session rounds get one. */
  private deadline(cs: ClientSpec, arrival: number, session: boolean): number {
    const timeout = this.timeoutOverride ?? cs.timeout ?? (session ? DEFAULT_SESSION_TIMEOUT_US : 0);
    return timeout > 0 ? arrival + timeout : 0;
  }

}

function before(a: Pending, b: Pending): boolean {
  if (a.time !== b.time) return a.time < b.time;
  return a.rank !== b.rank ? a.rank < b.rank : a.seq < b.seq;
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
 * A lazy request stream for a validated spec. A spec from an `inference_perf` section is
 * generated as BLIS generates it, draw for draw (see {@link InferencePerfSource}).
 */
export function createRequestSource(spec: LoadedSpec, opts: RequestSourceOptions = {}): SpecRequestSource | InferencePerfSource {
  if (spec.inferencePerf !== undefined)
    return new InferencePerfSource(spec.inferencePerf.plan, {
      seed: opts.seed ?? spec.seed,
      blockSizeTokens: opts.blockSizeTokens ?? 16,
      horizonUs: spec.horizon,
      maxRequests: opts.maxRequests ?? spec.num_requests,
      ...(opts.timeoutUs !== undefined ? { timeoutUs: opts.timeoutUs } : {}),
    });
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
