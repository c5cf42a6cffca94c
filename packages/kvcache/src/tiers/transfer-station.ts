import { KVCacheError } from '../errors.js';
import { CompletionLog, SlotFifo, grown } from './station-queues.js';
import type { SecondaryTierConfig } from './tier-config.js';

/** Cap on the bandwidth part of a service time (and on a jittered one), as in BLIS. */
const MAX_SERVICE_TICKS = 2 ** 60;
/** Lower bound of a jitter factor: a transfer is at most 20 times faster than its mean. */
const JITTER_MIN_FACTOR = 0.05;
const READ = 0;
const WRITE = 1;

/** Construction options of a {@link TransferStation}. */
export interface TransferStationOptions {
  /**
   * Source of standard normal draws (mean 0, deviation 1) for the service-time jitter: one draw
   * per job submitted to a tier whose `latencyJitterStddev` is above 0, in submission order, and
   * none otherwise. Required when some tier has jitter.
   */
  normal?: () => number;
}

/**
 * The offload chain's I/O queueing station (reference §1.4): deterministic, integer ticks.
 *
 * Each tier has `nReadThreads` read-priority and `nWriteThreads` write-priority servers and two
 * unbounded FIFO queues. A read-priority server takes the oldest read, or else the oldest
 * write; a write-priority server the reverse; so a server idles only while both queues are
 * empty (BC-S2). A job started with q jobs of its direction in service on its tier (itself
 * included) takes `round(baseLatency) + floor(bytes / effBW(q))` ticks, the bandwidth part
 * capped at 2^60, where effBW ramps linearly from f₁·bw at q = 1 to bw at q = Qsat (no ramp
 * when Qsat < 2 or f₁ is outside (0, 1)); with jitter σ > 0 that is then scaled by the job's
 * factor `max(0.05, 1 + N(0,1)·σ)`, drawn at submission, and rounded. A server freed at tick t
 * starts waiting work at t. Jobs complete in the total order (completeAt, submitTick, tier,
 * direction with read first, job id).
 *
 * The station keeps its own clock: {@link submit} at tick t first processes everything due by
 * t, and the completions it processes wait in a log until {@link drainCompleted}. Like BLIS's
 * station, processing to a tick at or before the clock is a no-op, so a job that starts and
 * ends at the current tick (a zero service time) is reported at the next later tick.
 */
export class TransferStation {
  /** Direction of a secondary → CPU transfer (a promotion). */
  static readonly READ = READ;
  /** Direction of a CPU → secondary transfer (a cascade write). */
  static readonly WRITE = WRITE;

  /** Number of tiers. */
  readonly tierCount: number;

  private readonly normal: (() => number) | undefined;
  // Per tier.
  private readonly nRead: Int32Array;
  private readonly nWrite: Int32Array;
  private readonly base: Float64Array;
  private readonly bw: Float64Array; // [tier * 2 + direction]
  private readonly qsat: Int32Array;
  private readonly f1: Float64Array;
  private readonly sigma: Float64Array;
  private readonly freeServers: Int32Array; // [tier * 2 + server class]
  private readonly active: Int32Array; // [tier * 2 + direction]
  private readonly queues: SlotFifo[]; // [tier * 2 + direction]

  // Jobs, by slot.
  private jobId = new Float64Array(0);
  private jobTier = new Int32Array(0);
  private jobDir = new Uint8Array(0);
  private jobServer = new Uint8Array(0);
  private jobBytes = new Float64Array(0);
  private jobSubmit = new Float64Array(0);
  private jobDone = new Float64Array(0);
  private jobJitter = new Float64Array(0);
  private jobTag = new Float64Array(0);
  private unused = new Int32Array(0);
  private unusedTop = 0;

  /** In-service jobs (slots), a binary min-heap by the completion order. */
  private heap = new Int32Array(16);
  private heapSize = 0;
  private lastTick = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  private nextId = 0;
  private pending = new CompletionLog();
  private drained = new CompletionLog();

  constructor(tiers: readonly Pick<SecondaryTierConfig, 'nReadThreads' | 'nWriteThreads' | 'device'>[], options: TransferStationOptions = {}) {
    const n = tiers.length;
    if (n === 0) throw new KVCacheError('a transfer station needs at least one tier');
    this.tierCount = n;
    this.normal = options.normal;
    this.nRead = new Int32Array(n);
    this.nWrite = new Int32Array(n);
    this.base = new Float64Array(n);
    this.bw = new Float64Array(2 * n);
    this.qsat = new Int32Array(n);
    this.f1 = new Float64Array(n);
    this.sigma = new Float64Array(n);
    this.freeServers = new Int32Array(2 * n);
    this.active = new Int32Array(2 * n);
    this.queues = [];
    for (let t = 0; t < n; t++) {
      const { nReadThreads: nr, nWriteThreads: nw, device: d } = tiers[t];
      const bad = (what: string): never => {
        throw new KVCacheError(`transfer station tier ${t}: ${what}`);
      };
      if (!Number.isInteger(nr) || !Number.isInteger(nw) || nr < 0 || nw < 0 || nr + nw < 1) bad(`needs integer thread counts >= 0 with at least one server (read ${nr}, write ${nw})`);
      if (!(d.baseLatencyUs >= 0) || !Number.isFinite(d.baseLatencyUs)) bad(`base latency must be finite and >= 0, found ${d.baseLatencyUs}`);
      if (!(d.readBandwidth > 0) || !(d.writeBandwidth > 0)) bad(`bandwidths must be > 0 (read ${d.readBandwidth}, write ${d.writeBandwidth})`);
      const qsat = Math.trunc(d.saturationQueueDepth);
      if (!(qsat >= 0)) bad(`saturation queue depth must be >= 0, found ${d.saturationQueueDepth}`);
      const f1 = d.singleTransferFraction;
      if (qsat >= 2 && !(f1 > 0 && f1 <= 1)) bad(`single-transfer fraction must lie in (0, 1] when the saturation depth is >= 2, found ${f1}`);
      const sigma = d.latencyJitterStddev;
      if (!(sigma >= 0) || !Number.isFinite(sigma)) bad(`jitter deviation must be finite and >= 0, found ${sigma}`);
      if (sigma > 0 && this.normal === undefined) bad('jitter needs a normal source (options.normal)');
      this.nRead[t] = nr;
      this.nWrite[t] = nw;
      this.base[t] = Math.round(d.baseLatencyUs);
      this.bw[2 * t + READ] = d.readBandwidth;
      this.bw[2 * t + WRITE] = d.writeBandwidth;
      this.qsat[t] = qsat;
      this.f1[t] = f1;
      this.sigma[t] = sigma;
      this.freeServers[2 * t + READ] = nr;
      this.freeServers[2 * t + WRITE] = nw;
      this.queues.push(new SlotFifo(), new SlotFifo());
    }
    this.growJobs(16);
  }

  /** The station's clock: the latest tick it has processed to. */
  get clock(): number {
    return this.lastTick;
  }

  /** Bandwidth, bytes per µs, of a job of `direction` started with `depth` such jobs in service on `tier` (itself included). */
  effectiveBandwidth(tier: number, direction: number, depth: number): number {
    return this.effBW(this.checkTier(tier), checkDirection(direction), depth);
  }

  /** Service time, µs, of a `bytes`-byte job of `direction` started at in-service depth `depth`, before jitter. */
  serviceTicks(tier: number, direction: number, bytes: number, depth = 1): number {
    return this.svcTicks(this.checkTier(tier), checkDirection(direction), bytes, depth);
  }

  private effBW(tier: number, direction: number, depth: number): number {
    const bw = this.bw[2 * tier + direction];
    const qsat = this.qsat[tier];
    const f1 = this.f1[tier];
    if (qsat < 2 || f1 <= 0 || f1 >= 1) return bw;
    const q = Math.max(depth, 1);
    if (q >= qsat) return bw;
    return bw * (f1 + ((1 - f1) * (q - 1)) / (qsat - 1));
  }

  private svcTicks(tier: number, direction: number, bytes: number, depth: number): number {
    // BLIS truncates the float quotient toward zero; the cap keeps completion ticks finite.
    return this.base[tier] + Math.min(Math.trunc(bytes / this.effBW(tier, direction, depth)), MAX_SERVICE_TICKS);
  }

  /**
   * Enqueues a job at tick `submitTick` (not before the clock, by the caller's contract; an
   * earlier tick starts it at the clock) after processing everything due by then, and starts
   * it at once if a server is idle. `tag` is carried to the completion for the caller's use.
   * Returns the job's id (1, 2, …).
   */
  submit(tier: number, direction: number, bytes: number, submitTick: number, tag = 0): number {
    this.checkTier(tier);
    checkDirection(direction);
    if (!Number.isInteger(bytes) || bytes < 0) throw new KVCacheError(`a transfer must move a whole number of bytes >= 0, found ${bytes}`);
    if (!Number.isInteger(submitTick)) throw new KVCacheError(`submit tick must be an integer, found ${submitTick}`);
    this.advance(submitTick);
    if (this.unusedTop === 0) this.growJobs(this.jobId.length * 2);
    const s = this.unused[--this.unusedTop];
    const id = ++this.nextId;
    this.jobId[s] = id;
    this.jobTier[s] = tier;
    this.jobDir[s] = direction;
    this.jobBytes[s] = bytes;
    this.jobSubmit[s] = submitTick;
    this.jobTag[s] = tag;
    const sigma = this.sigma[tier];
    this.jobJitter[s] = sigma > 0 ? Math.max(JITTER_MIN_FACTOR, 1 + (this.normal as () => number)() * sigma) : 0;
    this.queues[2 * tier + direction].push(s);
    this.assign(tier, Math.max(submitTick, this.lastTick));
    return id;
  }

  /**
   * Processes everything due by `now` and hands over every completion processed since the last
   * drain, in completion order: returns their number n, readable with {@link completedJob}
   * and the other `completed…` accessors for i < n until the next drain.
   */
  drainCompleted(now: number): number {
    this.advance(now);
    const log = this.pending;
    this.pending = this.drained;
    this.drained = log;
    this.pending.count = 0;
    return log.count;
  }

  /** Id of the i-th job of the last drain. */
  completedJob(i: number): number {
    return this.drained.id[i];
  }

  /** Tier of the i-th job of the last drain. */
  completedTier(i: number): number {
    return this.drained.tier[i];
  }

  /** Direction ({@link TransferStation.READ} or {@link TransferStation.WRITE}) of the i-th job of the last drain. */
  completedDirection(i: number): number {
    return this.drained.dir[i];
  }

  /** The `tag` the i-th job of the last drain was submitted with. */
  completedTag(i: number): number {
    return this.drained.tag[i];
  }

  /** Completion tick of the i-th job of the last drain. */
  completedAt(i: number): number {
    return this.drained.at[i];
  }

  /** Jobs of `direction` in service on `tier`, whichever server class serves them. */
  activeJobs(tier: number, direction: number): number {
    return this.active[2 * this.checkTier(tier) + checkDirection(direction)];
  }

  /** Jobs of `direction` waiting on `tier`. */
  queuedJobs(tier: number, direction: number): number {
    return this.queues[2 * this.checkTier(tier) + checkDirection(direction)].length;
  }

  /** Idle servers of `tier`, both classes. */
  idleServers(tier: number): number {
    this.checkTier(tier);
    return this.freeServers[2 * tier] + this.freeServers[2 * tier + 1];
  }

  /** Throws unless every tier has no idle server while work waits (BC-S2) and its counts add up (BC-S1). */
  checkConsistency(): void {
    let inService = 0;
    for (let t = 0; t < this.tierCount; t++) {
      const queued = this.queues[2 * t].length + this.queues[2 * t + 1].length;
      if (this.idleServers(t) > 0 && queued > 0) throw new KVCacheError(`BC-S2: tier ${t} has an idle server while ${queued} jobs wait`);
      const busy = this.active[2 * t] + this.active[2 * t + 1];
      if (busy + this.idleServers(t) !== this.nRead[t] + this.nWrite[t] || this.freeServers[2 * t] < 0 || this.freeServers[2 * t + 1] < 0)
        throw new KVCacheError(`BC-S1: tier ${t} has ${busy} jobs in service and ${this.idleServers(t)} idle servers`);
      inService += busy;
    }
    if (inService !== this.heapSize) throw new KVCacheError(`${inService} jobs in service but ${this.heapSize} on the completion heap`);
  }

  /** Completes, in order, every in-service job due by `target`, restarting freed servers at each completion tick. */
  private advance(target: number): void {
    if (target <= this.lastTick) return;
    while (this.heapSize > 0) {
      const s = this.heap[0];
      const at = this.jobDone[s];
      if (at > target) break;
      this.heapPop();
      const tier = this.jobTier[s];
      const dir = this.jobDir[s];
      this.freeServers[2 * tier + this.jobServer[s]]++;
      this.active[2 * tier + dir]--;
      this.pending.push(this.jobId[s], tier, dir, this.jobTag[s], at);
      this.unused[this.unusedTop++] = s;
      this.assign(tier, at);
    }
    this.lastTick = target;
  }

  /** Starts waiting jobs of `tier` on its idle servers: read-priority servers first, each class preferring its own queue. */
  private assign(tier: number, startTick: number): void {
    const reads = this.queues[2 * tier + READ];
    const writes = this.queues[2 * tier + WRITE];
    const fs = this.freeServers;
    while (fs[2 * tier + READ] > 0 && reads.length + writes.length > 0) {
      this.start(reads.length > 0 ? reads.shift() : writes.shift(), tier, READ, startTick);
      fs[2 * tier + READ]--;
    }
    while (fs[2 * tier + WRITE] > 0 && reads.length + writes.length > 0) {
      this.start(writes.length > 0 ? writes.shift() : reads.shift(), tier, WRITE, startTick);
      fs[2 * tier + WRITE]--;
    }
  }

  private start(s: number, tier: number, serverClass: number, startTick: number): void {
    const dir = this.jobDir[s];
    let svc = this.svcTicks(tier, dir, this.jobBytes[s], this.active[2 * tier + dir] + 1);
    const jitter = this.jobJitter[s];
    if (jitter > 0) svc = Math.min(Math.round(svc * jitter), MAX_SERVICE_TICKS);
    this.jobServer[s] = serverClass;
    this.jobDone[s] = startTick + svc;
    this.active[2 * tier + dir]++;
    this.heapPush(s);
  }

  /** The completion order: (completeAt, submitTick, tier, direction, id). */
  private before(a: number, b: number): boolean {
    if (this.jobDone[a] !== this.jobDone[b]) return this.jobDone[a] < this.jobDone[b];
    if (this.jobSubmit[a] !== this.jobSubmit[b]) return this.jobSubmit[a] < this.jobSubmit[b];
    if (this.jobTier[a] !== this.jobTier[b]) return this.jobTier[a] < this.jobTier[b];
    if (this.jobDir[a] !== this.jobDir[b]) return this.jobDir[a] < this.jobDir[b];
    return this.jobId[a] < this.jobId[b];
  }

  private heapPush(s: number): void {
    if (this.heapSize === this.heap.length) {
      const h = new Int32Array(this.heap.length * 2);
      h.set(this.heap);
      this.heap = h;
    }
    const heap = this.heap;
    let i = this.heapSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(s, heap[p])) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = s;
  }

  private heapPop(): void {
    const heap = this.heap;
    const last = heap[--this.heapSize];
    const n = this.heapSize;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.before(heap[c + 1], heap[c])) c++;
      if (!this.before(heap[c], last)) break;
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = last;
  }

  private growJobs(size: number): void {
    const old = this.jobId.length;
    this.jobId = grown(this.jobId, new Float64Array(size));
    this.jobTier = grown(this.jobTier, new Int32Array(size));
    this.jobDir = grown(this.jobDir, new Uint8Array(size));
    this.jobServer = grown(this.jobServer, new Uint8Array(size));
    this.jobBytes = grown(this.jobBytes, new Float64Array(size));
    this.jobSubmit = grown(this.jobSubmit, new Float64Array(size));
    this.jobDone = grown(this.jobDone, new Float64Array(size));
    this.jobJitter = grown(this.jobJitter, new Float64Array(size));
    this.jobTag = grown(this.jobTag, new Float64Array(size));
    // Every slot is in use when the pool grows, so the stack holds just the new ones.
    this.unused = new Int32Array(size);
    this.unusedTop = 0;
    for (let s = size - 1; s >= old; s--) this.unused[this.unusedTop++] = s;
  }

  private checkTier(tier: number): number {
    if (!Number.isInteger(tier) || tier < 0 || tier >= this.tierCount) throw new KVCacheError(`tier ${tier} out of range [0, ${this.tierCount})`);
    return tier;
  }
}

function checkDirection(direction: number): number {
  if (direction !== READ && direction !== WRITE) throw new KVCacheError(`invalid transfer direction ${direction}`);
  return direction;
}
