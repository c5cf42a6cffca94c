import { PartitionedRng, RandomStream, type RequestOutcome, type RequestSource, type RequestSpec, deriveSeed } from '@blis/engine';
import { type GapSampler, gapSampler } from './arrivals.js';
import { requestBlockHashes } from './block-hashes.js';
import { type LengthSampler, lengthSampler } from './distributions.js';
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

/** Prompt and answer length samplers: a client's own, or a window's overrides. */
interface Lengths {
  input: LengthSampler;
  output: LengthSampler;
}

/**
 * One lifecycle window of a spec with per-window overrides, generated as BLIS's time-varying
 * generator does (generator.go generateRequestsForWindow): `count = ceil(rate × duration)` gaps
 * of the window's arrival process, rescaled so they sum to the window exactly; arrivals are the
 * running sums, and those at or after `end` (always the last) are dropped. The gaps are drawn
 * twice from the same stream, once to sum them and once as they are emitted, so a window holds
 * one pending arrival whatever its count.
 */
interface WindowState extends Lengths {
  client: number;
  /** The window, clamped to the horizon: arrivals fall in [start, end). */
  start: number;
  end: number;
  count: number;
  /** Factor that makes the `count` gaps (summed in the first pass) fill the window exactly. */
  scale: number;
  drawn: number;
  /** Sum of the gaps drawn so far. */
  partial: number;
  gap: GapSampler;
  rng: RandomStream;
}

interface Pending {
  time: number;
  seq: number;
  client: number;
  /** Follow-up round of a session, or undefined for an open-loop arrival. */
  round?: { sessionId: string; round: number; contextTokens: number; rounds: number };
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
}

/**
 * A lazy request stream for a WorkloadSpec: each client's arrivals come from its own random
 * stream and are merged in time order; multi-turn sessions schedule their next round only when
 * the previous one completes (closed loop, via `onRequestDone`). Memory holds one pending
 * arrival per client (per lifecycle window when a window has overrides: BLIS's per-window
 * generation) plus one per open session, whatever `num_requests` is.
 */
export class SpecRequestSource implements RequestSource {
  private readonly clients: ClientState[];
  /** Per-window generation (any window has overrides); empty otherwise. */
  private readonly windows: WindowState[] = [];
  private readonly heap = new MinHeap<Pending>(before);
  private readonly sessions = new Map<number, SessionState>();
  private readonly blockSize: number;
  private readonly file: string;
  private readonly limit: number;
  private readonly horizon: number;
  private readonly timeoutOverride: number | undefined;
  private readonly defaultSloClass: string;
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
    const rng = new PartitionedRng(opts.seed ?? spec.seed);
    const totalFraction = spec.clients.reduce((a, c) => a + c.rate_fraction, 0);
    const groupLength = prefixGroupLengths(spec.clients);
    // As in BLIS, one window with an override puts the whole spec on the per-window generator.
    const perWindow = spec.clients.some((c) => c.lifecycle?.windows.some(hasWindowOverrides) === true);
    this.clients = spec.clients.map((c, i) => {
      const stream = rng.stream(`workload/client/${c.id}`);
      // Normalise the fraction first: aggregate * fraction can underflow for tiny fractions.
      const rate = spec.aggregate_rate * (c.rate_fraction / totalFraction);
      const st: ClientState = {
        spec: c,
        index: i,
        rng: stream,
        gap: rate > 0 && !perWindow ? gapSampler(c.arrival, rate) : () => Number.POSITIVE_INFINITY,
        input: lengthSampler(c.input_distribution, spec.baseDir),
        output: lengthSampler(c.output_distribution, spec.baseDir),
        prefixLength: c.prefix_group !== undefined ? groupLength.get(c.prefix_group)! : 0,
        next: Number.POSITIVE_INFINITY,
        sessions: 0,
      };
      if (!perWindow) st.next = this.advanceIntoWindow(st, st.gap(stream));
      return st;
    });
    if (perWindow) {
      this.buildWindows(spec, rng.masterSeed);
      for (let w = 0; w < this.windows.length; w++) this.pushWindowArrival(w);
    }
    for (const c of this.clients) if (c.next !== Number.POSITIVE_INFINITY) this.heap.push({ time: c.next, seq: this.seq++, client: c.index });
  }

  /**
   * The windows of the per-window generator, in client then window order (BLIS's
   * generateTimeVaryingRequests): a window starting at or after the horizon is skipped, one
   * ending after it is cut there, and one whose rate is 0 sends nothing.
   */
  private buildWindows(spec: LoadedSpec, masterSeed: number): void {
    spec.clients.forEach((c, ci) => {
      c.lifecycle?.windows.forEach((w, wi) => {
        const planned = plannedWindow(spec, c, w, this.horizon);
        if (planned === undefined) return;
        const { end, rate, count } = planned;
        const name = `workload/client/${c.id}/window/${wi}`;
        // The gaps are rescaled, so the rate only sets their scale; floored as BLIS's
        // NewArrivalSampler floors it (1e-15 per µs) to keep them finite.
        const gap = gapSampler(w.arrival ?? c.arrival, Math.max(rate, 1e-9));
        const first = new RandomStream(name, deriveSeed(masterSeed, name));
        let total = 0;
        for (let k = 0; k < count; k++) total += gap(first);
        const client = this.clients[ci];
        this.windows.push({
          client: ci,
          start: w.start_us,
          end,
          count,
          // All gaps 0 cannot be rescaled: BLIS leaves them, so every arrival is at the start.
          scale: total > 0 ? (end - w.start_us) / total : 0,
          drawn: 0,
          partial: 0,
          gap,
          rng: new RandomStream(name, deriveSeed(masterSeed, name)),
          input: w.input_distribution !== undefined ? lengthSampler(w.input_distribution, spec.baseDir) : client.input,
          output: w.output_distribution !== undefined ? lengthSampler(w.output_distribution, spec.baseDir) : client.output,
        });
      });
    });
  }

  /** Queues a window's next arrival: the running sum of its gaps, rescaled to the window. */
  private pushWindowArrival(index: number): void {
    const w = this.windows[index];
    if (w.drawn >= w.count) return;
    w.partial += w.gap(w.rng);
    w.drawn++;
    // The last rescaled sum is the window's end (BLIS puts the rounding residual on the last gap).
    const t = w.drawn === w.count && w.scale > 0 ? w.end : w.start + w.partial * w.scale;
    if (t >= w.end) {
      w.drawn = w.count;
      return;
    }
    this.heap.push({ time: t, seq: this.seq++, client: w.client, window: index });
  }

  peekArrivalUs(): number {
    if (!this.openLoopDone && this.emitted + this.reserved >= this.limit) this.closeOpenLoop();
    const top = this.heap.peek();
    if (top === undefined) return Number.POSITIVE_INFINITY;
    const t = Math.floor(top.time);
    return t > this.horizon ? Number.POSITIVE_INFINITY : t;
  }

  next(): RequestSpec | undefined {
    if (this.peekArrivalUs() === Number.POSITIVE_INFINITY) return undefined;
    const p = this.heap.pop()!;
    const c = this.clients[p.client];
    const arrival = Math.floor(p.time);
    if (p.window !== undefined) {
      this.pushWindowArrival(p.window);
      return this.emit(c, arrival, undefined, this.windows[p.window]);
    }
    if (p.round === undefined) {
      // Open loop: schedule this client's next arrival now, so the stream stays in time order.
      const nextTime = this.advanceIntoWindow(c, c.next + c.gap(c.rng));
      c.next = nextTime;
      if (nextTime !== Number.POSITIVE_INFINITY) this.heap.push({ time: nextTime, seq: this.seq++, client: c.index });
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
    this.heap.push({ time: nextAt, seq: this.seq++, client: s.client, round: { sessionId: s.sessionId, round: s.round + 1, contextTokens: context, rounds: s.rounds } });
  }

  /**
   * Drops the pending open-loop arrivals once the budget is spent: what remains of
   * `num_requests` belongs to the follow-up rounds of open sessions.
   */
  private closeOpenLoop(): void {
    this.openLoopDone = true;
    this.heap.retain((p) => p.round !== undefined);
  }

  private emit(c: ClientState, arrival: number, round: Pending['round'], lengths: Lengths = c): RequestSpec {
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
    const fresh = lengths.input(c.rng);
    // An accumulated context already starts with the prefix; otherwise every round sends it.
    const inputTokens = (roundIndex === 0 || multiTurn?.context_growth === 'none' ? prefixLength : 0) + context + fresh;
    const outputTokens = lengths.output(c.rng);
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
