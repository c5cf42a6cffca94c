import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';
import { type WindowCursor, drawTokenIds, inActiveWindow, lastWindowEnd } from './blis-draws.js';
import { type ClientState, clientStates } from './client-state.js';
import { GoRand } from './go-rand/go-rand.js';
import { goSubsystemRand } from './go-rand/partitioned-rng.js';
import { MinHeap } from './min-heap.js';
import { type Pending, type Placed, USER_RANK, before } from './pending-arrival.js';
import { type BuildOptions, type DrawnRequest, buildRequest, prefixGroupLengths } from './request-build.js';
import type { RequestSourceOptions } from './request-source-options.js';
import { isOpenLoopSpec } from './open-loop.js';
import { DEFAULT_SESSION_TIMEOUT_US } from './session-timeout.js';
import { concurrencySeeds } from './sessions/concurrency-users.js';
import { ClosedLoopSessions, type FollowUp } from './sessions/follow-ups.js';
import { type Lengths, drawSession, isClosedLoop } from './sessions/session-draws.js';
import { blueprintSeeds } from './sessions/session-seeds.js';
import type { LoadedSpec } from './spec-load.js';
import { type ClientSpec, DEFAULT_SLO_CLASS, type WindowSpec, hasWindowOverrides } from './spec-schema.js';
import { buildWindowCursors } from './window-cursors.js';

export { DEFAULT_SESSION_TIMEOUT_US };
export { networkDelay } from './request-build.js';

/**
 * A lazy request stream for a WorkloadSpec, drawn as BLIS HEAD's generator draws it
 * (sim/workload/generator.go): Go's math/rand, its `workload-gen` stream drawing first the tokens
 * of every prefix group, then one seed per sending client; each client's generator draws a gap,
 * then the request's prompt and answer lengths and their tokens, then the next gap. Clients are
 * merged in time order, ties in client order, as BLIS's stable sort leaves them, and the first
 * `num_requests` are kept. A multi-turn session places all its rounds when it starts; a
 * closed-loop session then sends only round 0 and makes each later round when the previous
 * completes (via `onRequestDone`), on a generator of its own. Memory holds one pending arrival
 * per client (per lifecycle window on the per-window generator) plus the rounds of open sessions.
 */
export class SpecRequestSource implements RequestSource {
  private readonly clients: ClientState[];
  /** Per-window generation (any window has overrides); empty otherwise. */
  private windows: WindowCursor[] = [];
  private windowQueues = new Map<number, WindowCursor[]>();
  private readonly heap = new MinHeap<Pending>(before);
  private readonly sessions: ClosedLoopSessions;
  /** No closed-loop session or concurrency user: completions bring no request (see RequestSource.openLoop). */
  readonly openLoop: boolean;
  private readonly build: BuildOptions;
  private readonly limit: number;
  private readonly horizon: number;
  /** The seed of each closed-loop session's generator, by session id; undefined while planning. */
  private readonly sessionSeeds: Map<string, bigint> | undefined;
  /** While planning: the sessions each closed-loop client starts inside `num_requests`. */
  private readonly planned: string[][] | undefined;
  private emitted = 0;
  /** Places taken in `num_requests`: open-loop requests and placed session rounds (follow-ups take none). */
  private slots = 0;
  private seq = 0;
  /** `num_requests` is spent: only follow-ups of closed-loop sessions remain. */
  private openLoopDone = false;

  constructor(spec: LoadedSpec, opts: RequestSourceOptions = {}, planning = false) {
    this.build = {
      blockSize: opts.blockSizeTokens ?? 16,
      file: opts.file ?? 'workload spec',
      timeoutOverride: opts.timeoutUs,
      defaultSloClass: opts.defaultSloClass ?? DEFAULT_SLO_CLASS,
    };
    this.limit = opts.maxRequests ?? spec.num_requests ?? Number.POSITIVE_INFINITY;
    this.horizon = spec.horizon ?? opts.horizonUs ?? Number.POSITIVE_INFINITY;
    this.sessions = new ClosedLoopSessions(this.horizon, opts.thinkTime);
    this.openLoop = isOpenLoopSpec(spec);
    const seed = BigInt(opts.seed ?? spec.seed);
    const workload = goSubsystemRand(seed, 'workload-gen');
    const groupLength = prefixGroupLengths(spec.clients);
    // The shared prefixes come first from the workload stream, a group at a time in spec order.
    for (const length of groupLength.values()) drawTokenIds(workload, length);
    // As in BLIS, one window with an override puts the whole spec on the per-window generator.
    const perWindow = spec.clients.some((c) => c.lifecycle?.windows.some(hasWindowOverrides) === true);
    this.clients = clientStates(spec, workload, groupLength, perWindow, this.build.file);
    const closedLoop = spec.clients.some((c) => c.reasoning?.multi_turn !== undefined && isClosedLoop(c));
    if (planning) this.planned = spec.clients.map(() => []);
    else if (closedLoop) this.sessionSeeds = SpecRequestSource.plannedSeeds(spec, opts, seed);
    if (perWindow) {
      const built = buildWindowCursors(spec, this.clients, this.horizon, (rng, w, cs, t) => this.dryDraw(rng, w, cs, t));
      this.windows = built.windows;
      this.windowQueues = built.queues;
      for (const w of built.first) this.pushWindowArrival(w);
      return;
    }
    for (const c of this.clients) this.pushOpenLoop(c);
    if (!planning) this.startUsers(spec, opts, seed);
  }

  /**
   * The concurrency clients' virtual users (see {@link concurrencySeeds}). As in BLIS, their first
   * requests fill what `num_requests` leaves after the generated requests (a dry run counts
   * those), and their follow-ups what is left after that.
   */
  private startUsers(spec: LoadedSpec, opts: RequestSourceOptions, seed: bigint): void {
    const clients = this.clients.filter((c) => (c.spec.concurrency ?? 0) > 0);
    if (clients.length === 0) return;
    let kept = 0;
    if (Number.isFinite(this.limit) && this.clients.some((c) => c.rng !== undefined)) {
      const plan = new SpecRequestSource(spec, opts, true);
      while (plan.take() !== undefined) kept++;
    }
    const { seeds, users } = concurrencySeeds(seed, clients, this.limit, kept);
    for (const u of seeds) this.heap.push({ time: u.time, rank: USER_RANK, seq: this.seq++, client: u.client, user: u });
    if (Number.isFinite(this.limit) && users > 0) this.sessions.setBudget(Math.max(0, this.limit - kept - seeds.length));
  }

  /**
   * BLIS seeds each closed-loop session's generator in the sorted order of the ids of all the
   * sessions kept, so they must be known before the first follow-up: a dry run of the open-loop
   * stream (no requests built) finds them.
   */
  private static plannedSeeds(spec: LoadedSpec, opts: RequestSourceOptions, seed: bigint): Map<string, bigint> {
    const plan = new SpecRequestSource(spec, opts, true);
    while (plan.take() !== undefined);
    const closed = plan.clients.filter((c) => c.spec.reasoning?.multi_turn !== undefined && isClosedLoop(c.spec));
    return blueprintSeeds(
      seed,
      closed.map((c) => plan.planned![c.index]),
    );
  }

  /** The draws of a request of a window's dry run (see buildWindowCursors), nothing else. */
  private dryDraw(rng: GoRand, lengths: Lengths, cs: ClientSpec, time: number): void {
    if (cs.reasoning?.multi_turn !== undefined) drawSession(rng, lengths, cs, time);
    else drawTokenIds(rng, lengths.input(rng) + lengths.output(rng));
  }

  /** Queues a window's next arrival; a finished window hands the client's stream to its next one. */
  private pushWindowArrival(w: WindowCursor): void {
    const t = w.nextArrival();
    if (t !== undefined) {
      this.heap.push({ time: t, rank: w.order, seq: this.seq++, client: w.client, window: w.order });
      return;
    }
    const next = this.windowQueues.get(w.client)?.shift();
    if (next === undefined) return;
    next.begin(w.rng!);
    this.pushWindowArrival(next);
  }

  /**
   * Draws a client's next open-loop arrival, BLIS's loop: a gap, and an arrival at or after the
   * horizon ends the client; outside its lifecycle windows the arrival is dropped (no lengths are
   * drawn for it), and one after the last window ends the client. A session client stops once it
   * has generated 2 × num_requests rounds (BLIS's per-client cap, which counts every placed
   * round); a single-session client sends one session, from its first window's start.
   */
  private pushOpenLoop(c: ClientState): void {
    const rng = c.rng;
    if (rng === undefined) return;
    const windows = c.spec.lifecycle?.windows;
    if (c.spec.reasoning?.multi_turn?.single_session === true) {
      if (c.generated > 0) return;
      c.generated = 1;
      const t = c.gap(rng) + (windows !== undefined ? windows[0].start_us : 0);
      if (t < this.horizon && (windows === undefined || inActiveWindow(t, windows))) this.heap.push({ time: t, rank: c.index, seq: this.seq++, client: c.index });
      return;
    }
    if (c.generated >= 2 * this.limit) return;
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
    for (;;) {
      if (!this.openLoopDone && this.slots >= this.limit) this.closeOpenLoop();
      const top = this.heap.peek();
      if (top?.placed?.phantom !== true) return top?.time ?? Number.POSITIVE_INFINITY;
      // A closed-loop session's placed round keeps its place in num_requests, and nothing more.
      this.heap.pop();
      this.slots++;
    }
  }

  next(): RequestSpec | undefined {
    const drawn = this.take();
    if (drawn === undefined) return undefined;
    const [d, c, session] = drawn;
    const spec = buildRequest(d, c.spec, c.index, this.emitted++, this.build);
    if (session !== undefined) this.sessions.wait(spec.index, session);
    return spec;
  }

  /** Takes the next arrival and draws it (lengths, tokens, and a session's placed rounds). */
  private take(): [DrawnRequest, ClientState, FollowUp['session']?] | undefined {
    if (this.peekArrivalUs() === Number.POSITIVE_INFINITY) return undefined;
    const p = this.heap.pop()!;
    const c = this.clients[p.client];
    if (p.followUp !== undefined) return this.followUp(c, p.followUp);
    if (p.user !== undefined) {
      const u = p.user;
      return [{ arrival: p.time, inputTokens: c.prefixLength + u.input, outputTokens: u.output, sessionId: u.session.sessionId, roundIndex: 0, prefixLength: c.prefixLength, sessionContext: false, sessionDeadline: true }, c, u.session];
    }
    this.slots++;
    if (p.placed !== undefined) return [this.placedRound(c, p.time, p.placed), c];
    if (p.window !== undefined) {
      const w = this.windows[p.window];
      const drawn = this.drawOpenLoop(c, p.time, w, w.rng!, p.rank, w.end, undefined);
      // A single session per client: the window has sent it.
      if (c.spec.reasoning?.multi_turn?.single_session === true) w.finish();
      this.pushWindowArrival(w);
      return drawn;
    }
    // The request's lengths and tokens are drawn before the client's next gap, as in BLIS.
    const drawn = this.drawOpenLoop(c, p.time, c.lengths, c.rng!, p.rank, this.horizon, c.spec.lifecycle?.windows);
    this.pushOpenLoop(c);
    return drawn;
  }

  /**
   * An open-loop arrival: a plain request, or the start of a multi-turn session, which draws all
   * its rounds and places the later ones (those before `end` and inside `windows`) in the stream
   * at BLIS's times.
   */
  private drawOpenLoop(c: ClientState, time: number, lengths: Lengths, rng: GoRand, rank: number, end: number, windows: readonly WindowSpec[] | undefined): [DrawnRequest, ClientState, FollowUp['session']?] {
    const cs = c.spec;
    const mt = cs.reasoning?.multi_turn;
    const closed = isClosedLoop(cs);
    if (mt === undefined) {
      c.generated++;
      // BLIS draws a multimodal prompt with its token ids before the answer's length.
      const mm = c.multimodal?.(rng);
      const input = mm?.inputTokens ?? lengths.input(rng);
      const output = lengths.output(rng);
      drawTokenIds(rng, mm === undefined ? input + output : output);
      const d: DrawnRequest = { arrival: time, inputTokens: c.prefixLength + input, outputTokens: output, sessionId: '', roundIndex: 0, prefixLength: c.prefixLength, sessionContext: false, sessionDeadline: closed };
      if (mm !== undefined) d.modalities = mm.modalities;
      return [d, c];
    }
    const s = drawSession(rng, lengths, cs, time);
    c.generated += s.rounds.length;
    const accumulate = mt.context_growth === 'accumulate';
    let context = c.prefixLength;
    s.rounds.forEach((r, k) => {
      const inputTokens = (accumulate ? context : c.prefixLength) + r.input;
      context += r.input + r.output;
      if (k === 0 || r.time >= end || (windows !== undefined && !inActiveWindow(r.time, windows))) return;
      this.heap.push({ time: r.time, rank, seq: this.seq++, client: c.index, placed: { sessionId: s.id, round: k, inputTokens, outputTokens: r.output, phantom: closed } });
    });
    const r0 = s.rounds[0];
    const d = { arrival: time, inputTokens: c.prefixLength + r0.input, outputTokens: r0.output, sessionId: s.id, roundIndex: 0, prefixLength: c.prefixLength, sessionContext: accumulate, sessionDeadline: true };
    if (!closed) return [d, c];
    if (this.planned !== undefined) {
      this.planned[c.index].push(s.id);
      return [d, c];
    }
    const explicit = cs.prefix_length ?? 0;
    const session = {
      client: c.index,
      sessionId: s.id,
      round: 0,
      maxRounds: mt.max_rounds,
      thinkTimeUs: mt.think_time_us,
      accumulate,
      // BLIS's blueprint repeats the client's own prefix_length of round 0's prompt, when it gives one.
      prefixTokens: cs.prefix_group !== undefined && explicit > 0 ? explicit : 0,
      lengths: c.lengths,
      rng: GoRand.fromSeed(this.sessionSeeds!.get(s.id)!),
      inputTokens: d.inputTokens,
      outputTokens: d.outputTokens,
    };
    return [d, c, session];
  }

  private placedRound(c: ClientState, time: number, p: Placed): DrawnRequest {
    const accumulate = c.spec.reasoning?.multi_turn?.context_growth === 'accumulate';
    return { arrival: time, inputTokens: p.inputTokens, outputTokens: p.outputTokens, sessionId: p.sessionId, roundIndex: p.round, prefixLength: c.prefixLength, sessionContext: accumulate, sessionDeadline: true };
  }

  private followUp(c: ClientState, f: FollowUp): [DrawnRequest, ClientState, FollowUp['session']] {
    const s = f.session;
    s.round = f.round;
    s.inputTokens = f.inputTokens;
    s.outputTokens = f.outputTokens;
    const prefixLength = s.accumulate ? c.prefixLength : s.prefixTokens;
    const d = { arrival: f.time, inputTokens: f.inputTokens, outputTokens: f.outputTokens, sessionId: s.sessionId, roundIndex: f.round, prefixLength, sessionContext: s.accumulate, sessionDeadline: true };
    return [d, c, s];
  }

  onRequestDone(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void {
    if (this.sessions.size === 0) return;
    const f = this.sessions.done(spec.index, timeUs, outcome);
    if (f !== undefined) this.heap.push({ time: f.time, rank: Number.MAX_SAFE_INTEGER, seq: this.seq++, client: f.session.client, followUp: f });
  }

  /** Drops the pending open-loop arrivals once `num_requests` is spent: only follow-ups remain. */
  private closeOpenLoop(): void {
    this.openLoopDone = true;
    this.heap.retain((p) => p.followUp !== undefined || p.user !== undefined);
  }
}
