import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';
import { requestBlockHashes } from '../block-hashes.js';
import { drawTokenIds } from '../blis-draws.js';
import { TraceReadError } from '../errors.js';
import { MinHeap } from '../min-heap.js';
import { DEFAULT_SESSION_TIMEOUT_US } from '../session-timeout.js';
import { type ThinkTimeDist, sampleThinkTimeUs } from '../think-time/think-time-dist.js';
import { TRACE_LIMITS } from '../traces/trace-limits.js';
import { openTraceV2Rows } from '../traces/tracev2.js';
import { type LocatedRow, type SessionPlan, planSessionReplay } from './session-plans.js';

export interface ClosedLoopReplayOptions {
  /** BLIS's replay seed (`--seed`): the Go generator the sessions' own generators are seeded from. */
  seed: number;
  blockSizeTokens?: number;
  /** The data CSV when it is not named after the header (BLIS's `--trace-data`). */
  dataPath?: string;
  /** Read only the first N rows of the trace (in file order). */
  maxRequests?: number;
  /** A follow-up that would arrive after this (µs) ends its session instead (BLIS's horizon guard). */
  horizonUs?: number;
  /**
   * Every session's pause between an answer and its next round (BLIS's `--think-time-dist`, or
   * `--think-time-ms` as a constant), drawn on the session's generator. Unset: the session's
   * recorded `think_time_us` when it has any, else the gaps between its rounds' arrivals.
   */
  thinkTime?: ThinkTimeDist;
}

/** A session with its round in flight. */
interface Live {
  plan: SessionPlan;
  round: number;
  prompt: number;
  output: number;
}

interface Pending {
  spec: RequestSpec;
  /** 0: sent at its recorded time; 1: a follow-up (after every recorded arrival of the same µs, as BLIS pushes them later). */
  rank: number;
  seq: number;
  live?: Live;
}

/**
 * BLIS's closed-loop session replay (`blis replay --session-mode closed-loop`): round 0 of every
 * session and every row outside a session arrive at their recorded times; a session's next round
 * is sent when the previous one completes, after a think time, as BLIS's SessionManager does. A
 * round that does not complete, the session's last recorded round, or a next arrival past the
 * horizon ends the session. The next round's prompt is the group prefix and the round's own
 * recorded tokens, or, with the header's `session_context_growth: accumulate`, the previous
 * prompt, its whole answer and the round's own tokens (hashed on the session's stream, so it
 * hits what the previous round left in the KV cache). Every row is held in memory.
 */
export class ClosedLoopTraceSource implements RequestSource {
  private readonly heap = new MinHeap<Pending>(before);
  private readonly waiting = new Map<number, Live>();
  private readonly thinkTime: ThinkTimeDist | undefined;
  private readonly horizon: number;
  private readonly blockSize: number;
  private seq = 0;
  private emitted = 0;
  /** BLIS's follow-up id counter (`session_<id>_round_<n>_<counter>`). */
  private followUps = 0;
  /** Sessions in the trace: 0 means every row is sent at its recorded time. */
  readonly sessions: number;

  constructor(path: string, opts: ClosedLoopReplayOptions) {
    this.blockSize = opts.blockSizeTokens ?? 16;
    this.horizon = opts.horizonUs ?? Number.POSITIVE_INFINITY;
    this.thinkTime = opts.thinkTime;
    const { header, headerPath, csv, rows } = openTraceV2Rows(path, { blockSizeTokens: this.blockSize, ...(opts.dataPath !== undefined ? { dataPath: opts.dataPath } : {}) });
    const limit = opts.maxRequests ?? Number.POSITIVE_INFINITY;
    const all: LocatedRow[] = [];
    for (let r = all.length < limit ? rows.read() : undefined; r !== undefined; r = all.length < limit ? rows.read() : undefined) {
      if (all.length === TRACE_LIMITS.maxSortedRows)
        throw new TraceReadError({ file: csv, line: rows.lineOf(), expected: `at most ${TRACE_LIMITS.maxSortedRows} rows for closed-loop session replay (they are grouped in memory)`, found: 'more rows' });
      all.push({ ...r, line: rows.lineOf() });
    }
    if (all.length === 0) throw new TraceReadError({ file: csv, expected: 'at least one request row', found: 'none' });
    const plan = planSessionReplay(all, header, { header: headerPath, csv }, opts.seed, this.blockSize);
    this.sessions = plan.sessions.length;
    const live = new Map(plan.sessions.map((s) => [s.first, s]));
    for (const spec of plan.injected) {
      const s = live.get(spec);
      this.heap.push({ spec, rank: 0, seq: this.seq++, ...(s !== undefined ? { live: { plan: s, round: 0, prompt: spec.inputTokens, output: spec.outputTokens } } : {}) });
    }
  }

  peekArrivalUs(): number {
    return this.heap.peek()?.spec.arrivalUs ?? Number.POSITIVE_INFINITY;
  }

  next(): RequestSpec | undefined {
    const p = this.heap.pop();
    if (p === undefined) return undefined;
    const spec = { ...p.spec, index: this.emitted++ };
    if (p.live !== undefined) this.waiting.set(spec.index, p.live);
    return spec;
  }

  onRequestDone(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void {
    const s = this.waiting.get(spec.index);
    if (s === undefined) return;
    this.waiting.delete(spec.index);
    const plan = s.plan;
    if (outcome !== 'completed' || s.round >= plan.inputs.length) return;
    const k = s.round; // index of the next round among the follow-ups
    const think = this.thinkTime !== undefined ? sampleThinkTimeUs(this.thinkTime, () => plan.rng.normFloat64()) : plan.thinks[k];
    const arrival = timeUs + think;
    if (arrival > this.horizon) return;
    const turn = plan.inputs[k];
    const output = plan.outputs[k];
    drawTokenIds(plan.rng, turn + output);
    const first = plan.first;
    const prompt = plan.accumulate ? s.prompt + s.output + turn : first.prefixLength + turn;
    const round = k + 1;
    const id = `session_${plan.sessionId}_round_${round}_${++this.followUps}`;
    const hashes = requestBlockHashes({ id, inputTokens: prompt, prefixGroup: first.prefixGroup, prefixLength: first.prefixLength, sessionId: plan.accumulate ? plan.sessionId : '' }, output, this.blockSize);
    const next: RequestSpec = {
      ...first,
      index: 0,
      id,
      arrivalUs: arrival,
      inputTokens: prompt,
      outputTokens: output,
      blockHashes: hashes.blockHashes,
      kvBlockHashes: hashes.kvBlockHashes,
      roundIndex: round,
      streaming: false,
      // BLIS gives every follow-up its default session timeout.
      deadlineUs: arrival + DEFAULT_SESSION_TIMEOUT_US,
      networkDelayUs: 0,
    };
    this.heap.push({ spec: next, rank: 1, seq: this.seq++, live: { plan, round, prompt, output } });
  }
}

function before(a: Pending, b: Pending): boolean {
  if (a.spec.arrivalUs !== b.spec.arrivalUs) return a.spec.arrivalUs < b.spec.arrivalUs;
  return a.rank !== b.rank ? a.rank < b.rank : a.seq < b.seq;
}
