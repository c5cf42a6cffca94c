import { type SimulationConfigInput, type SimulationRuntime, prepareSimulation } from '@blis/cluster';
import type { ClusterSimulator } from '@blis/cluster/internal';
import type { RequestSpec, SimRequest } from '@blis/engine';
import { PushRequestSource } from './push-source.js';

/** What the simulator has said so far about one request, on its clock (µs since the start). */
export interface LiveEntry {
  readonly id: string;
  readonly arrivalUs: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** `served` once completed, `failed` when dropped, rejected or timed out. */
  status: 'pending' | 'served' | 'failed';
  /** When each token known so far becomes visible (BLIS's accounting: TTFT, then TTFT plus the ITLs). */
  readonly dueUs: number[];
  /**
   * When the response ends: arrival plus the simulated E2E, which may run past the last token by
   * a completion overhead (trained-physics). The usage chunk goes out then, as the last chunk.
   */
  endUs: number;
  cacheHitBlocks: number;
}

/** An arrival announced ahead of its request: see {@link LiveSimulation.hold}. */
export interface ArrivalHold {
  readonly arrivalUs: number;
  release(): void;
}

/** A request as a live driver hands it over (the index and arrival are the simulation's). */
export type LiveRequest = Omit<RequestSpec, 'index' | 'arrivalUs'>;

/**
 * One simulation run forward as a wall clock moves: requests are pushed in at their arrival and
 * the cluster advances to each instant asked for, never past it. The simulator is causal (a
 * request arriving at t changes nothing before t), so what it has said stays true, and every
 * request ends with exactly the TTFT and E2E a replay of the same arrivals reports. Tokens
 * between the first and the last come from the batch's live counters, step by step.
 */
export class LiveSimulation {
  readonly cluster: ClusterSimulator;
  private readonly source = new PushRequestSource();
  private readonly entries = new Map<string, LiveEntry>();
  private readonly pending = new Set<LiveEntry>();
  /** Arrival instants announced by {@link hold} whose requests are not added yet. */
  private readonly holds = new Set<ArrivalHold>();
  private count = 0;
  /** Prompt tokens of the completed requests, and the blocks they found cached (vLLM's prefix-cache counters). */
  readonly cacheCounters = { queriedTokens: 0, hitBlocks: 0 };

  constructor(config: SimulationConfigInput, runtime: Omit<SimulationRuntime, 'source'> = {}) {
    const outer = runtime.observer;
    const observer: NonNullable<SimulationRuntime['observer']> = {
      ...outer,
      onCompleted: (req, now, e2eUs) => {
        outer?.onCompleted?.(req, now, e2eUs);
        this.completed(req, e2eUs);
      },
      onDropped: (req, now, reason, detail) => {
        outer?.onDropped?.(req, now, reason, detail);
        const e = this.entries.get(req.spec.id);
        if (e !== undefined && e.status === 'pending') {
          e.status = 'failed';
          this.pending.delete(e);
        }
      },
    };
    this.cluster = prepareSimulation({ ...config, includeRequests: false }, { ...runtime, source: this.source, observer }).cluster;
  }

  get size(): number {
    return this.count;
  }

  entry(id: string): LiveEntry | undefined {
    return this.entries.get(id);
  }

  /** Every request received so far, in arrival order. */
  all(): IterableIterator<LiveEntry> {
    return this.entries.values();
  }

  /** The tick the simulation next has something to do at (Infinity: idle until a request comes). */
  get nextEventUs(): number {
    return this.cluster.nextEventUs;
  }

  /**
   * Adds a request arriving at `arrivalUs` (at the simulated clock, if that is later) and
   * returns its entry. Ids must be unique among requests in flight.
   */
  add(req: LiveRequest, arrivalUs: number): LiveEntry {
    const t = Math.floor(arrivalUs);
    // Everything before the arrival happens first; at its own tick the arrival goes first.
    this.cluster.advance(Math.min(t - 1, this.heldBefore()));
    const at = Math.max(t, this.cluster.clockUs);
    const spec: RequestSpec = { ...req, index: this.count++, arrivalUs: at };
    const entry: LiveEntry = { id: spec.id, arrivalUs: at, inputTokens: spec.inputTokens, outputTokens: spec.outputTokens, status: 'pending', dueUs: [], endUs: at, cacheHitBlocks: 0 };
    this.entries.set(spec.id, entry);
    this.pending.add(entry);
    this.source.push(spec);
    this.advance(at);
    return entry;
  }

  /**
   * Announces a request known to arrive at `arrivalUs` whose details are not in yet (a server
   * that has its headers and is still reading its body): until the hold is released, no
   * {@link advance} or {@link add} runs the simulation to that instant, so the request can still
   * be added at it. Release it when the request is added, or when it never will be.
   */
  hold(arrivalUs: number): ArrivalHold {
    const h: ArrivalHold = { arrivalUs: Math.floor(arrivalUs), release: () => void this.holds.delete(h) };
    this.holds.add(h);
    return h;
  }

  /** The last tick the simulation may reach while requests are held (MAX_SAFE_INTEGER: none held). */
  private heldBefore(): number {
    let t = Number.MAX_SAFE_INTEGER;
    for (const h of this.holds) if (h.arrivalUs - 1 < t) t = h.arrivalUs - 1;
    return t;
  }

  /**
   * Runs the simulation up to `nowUs` (or to just before the earliest held arrival) and learns
   * the token times of the requests running then.
   */
  advance(nowUs: number): void {
    this.cluster.advance(Math.min(Math.floor(nowUs), this.heldBefore()));
    for (const inst of this.cluster.instances) {
      inst.forEachRunning((req, progress, itlSum) => {
        const e = this.entries.get(req.spec.id);
        if (e === undefined || e.status !== 'pending' || req.ttft < 0) return;
        // The step that took the prompt's last token produced the first token; each decode
        // step one more (a decode part's counters start past the prompt).
        const produced = Math.min(e.outputTokens, progress - req.inputTokens + 1);
        const at = req.spec.arrivalUs + req.ttft + itlSum;
        if (e.dueUs.length === 0 && produced > 0) e.dueUs.push(req.spec.arrivalUs + req.ttft);
        while (e.dueUs.length < produced) e.dueUs.push(Math.max(at, e.dueUs[e.dueUs.length - 1]));
      });
    }
  }

  /** Drops what the simulator knows about a request the client has gone away from. */
  forget(id: string): void {
    const e = this.entries.get(id);
    if (e !== undefined && e.status !== 'pending') this.entries.delete(id);
  }

  private completed(req: SimRequest, e2eUs: number): void {
    const e = this.entries.get(req.spec.id);
    if (e === undefined || e.status !== 'pending') return;
    e.status = 'served';
    e.cacheHitBlocks = req.cacheHitBlocks;
    this.cacheCounters.queriedTokens += e.inputTokens;
    this.cacheCounters.hitBlocks += req.cacheHitBlocks;
    this.pending.delete(e);
    const end = req.spec.arrivalUs + e2eUs;
    e.endUs = end;
    if (e.dueUs.length === 0) e.dueUs.push(Math.min(end, req.spec.arrivalUs + Math.max(req.ttft, 0)));
    // Tokens not yet seen (a request that ran and finished between two looks) are spread evenly
    // up to the completion.
    const from = e.dueUs.length;
    const start = e.dueUs[from - 1];
    for (let k = from; k < e.outputTokens; k++) e.dueUs.push(start + ((end - start) * (k - from + 1)) / (e.outputTokens - from));
    e.dueUs.length = Math.max(1, e.outputTokens);
  }
}
