import { CPU_HIT, CPU_HIT_PENDING, CPU_MISS, type CpuLookup, type CpuStagingTier } from './cpu-staging-tier.js';
import { KeyIndex } from './key-index.js';

/** Episode phase: a cold fetch whose existence check on the secondary tier is still in flight. */
export const DEFER_RETRY = 0;
/** Episode phase: waiting for a promotion (its own or another request's) to land on the CPU tier. */
export const DEFER_PROMOTING = 1;

/** A pending episode older than this (µs) is sent to recompute: a livelock backstop that legitimate fetches never reach. */
export const MAX_DEFER_TICKS = 1_000_000_000;

/** One request's deferred admission (reference §1.4 "Deferral (H3)"). */
export interface DeferralEpisode {
  phase: typeof DEFER_RETRY | typeof DEFER_PROMOTING;
  /** The run of block keys being fetched or awaited. */
  keys: number[];
  /** Secondary tier holding the run; -1 when awaiting another request's promotion. */
  tier: number;
  /** Whether this episode submitted its own promotion. */
  hasJob: boolean;
  startTick: number;
  /** The keys are CPU-readable: admit through the chain at the next examination. */
  resolved: boolean;
  /** The fetch was refused or its blocks lost: admit and recompute at the next examination. */
  recompute: boolean;
  /**
   * The CPU tier's version when the keys were last found pending: an idle instance polls every
   * (short) empty step while a read is in flight, and rescanning a long run each time cost more
   * than the rest of the simulation.
   */
  checkedVersion: number;
}

/** What the episodes need from the chain that owns them. */
export interface PromotionHost {
  /** Fires one promotion of `count` keys of `keys` from `from`, held by secondary `tier`; false when the gate refused it. */
  firePromotion(keys: ArrayLike<number>, from: number, count: number, tier: number): boolean;
}

/**
 * The deferral episodes of new admissions waiting on a secondary-tier fetch, keyed by request,
 * with BLIS's existence-known set: the keys whose secondary existence a past episode resolved,
 * so that a later fetch of them is warm (promoted at once) instead of cold (one RETRY round
 * first). The set is global across tiers and never shrinks. One fetch attempt per episode; an
 * episode ends resolved or recompute and is then never re-deferred (its owner closes it on
 * admission).
 */
export class DeferralBook {
  private readonly episodes = new Map<number, DeferralEpisode>();
  private readonly known = new KeyIndex(64);
  private readonly cpu: CpuStagingTier;
  private readonly host: PromotionHost;
  private order: number[] = [];
  /** Episodes registered so far (BLIS's `deferralsStarted`). */
  started = 0;

  constructor(cpu: CpuStagingTier, host: PromotionHost) {
    this.cpu = cpu;
    this.host = host;
  }

  /** Episodes held, terminal ones included. */
  get size(): number {
    return this.episodes.size;
  }

  episode(key: number): DeferralEpisode | undefined {
    return this.episodes.get(key);
  }

  /** True while `key` has an episode that is neither resolved nor sent to recompute. */
  isPending(key: number): boolean {
    const e = this.episodes.get(key);
    return e !== undefined && !e.resolved && !e.recompute;
  }

  /** Forgets `key`'s episode (admitted, timed out, or gone). */
  close(key: number): void {
    this.episodes.delete(key);
  }

  /** Whether a key's secondary existence is already known (tests and diagnostics). */
  isKnown(key: number): boolean {
    return this.known.get(key) !== -1;
  }

  /** A new admission found block `awaited` being promoted for someone else: wait for it (no RETRY round). */
  registerPending(key: number, awaited: number, now: number): void {
    this.started++;
    this.episodes.set(key, episode(DEFER_PROMOTING, [awaited], -1, now));
  }

  /**
   * A new admission needs the run `keys[from, from + count)` from secondary `tier`. Warm (every
   * key's existence known): the promotion fires now, and a refusal sends the episode straight
   * to recompute. Cold: the episode waits one round in RETRY.
   */
  registerSecondary(key: number, keys: ArrayLike<number>, from: number, count: number, tier: number, now: number): void {
    this.started++;
    const run: number[] = [];
    for (let i = from; i < from + count; i++) run.push(keys[i]);
    const e = episode(DEFER_RETRY, run, tier, now);
    if (this.allKnown(run)) {
      if (this.host.firePromotion(run, 0, run.length, tier)) {
        e.phase = DEFER_PROMOTING;
        e.hasJob = true;
      } else {
        e.recompute = true;
      }
    }
    this.episodes.set(key, e);
  }

  /**
   * Advances every pending episode by one round, in ascending numeric order of request keys (BLIS
   * sorts its string request ids; the order fixes which promotion is submitted, and so which CPU
   * blocks are evicted, first). Terminal episodes are left for their admission.
   */
  poll(now: number): void {
    if (this.episodes.size === 0) return;
    const order = this.order;
    order.length = 0;
    for (const k of this.episodes.keys()) order.push(k);
    order.sort(ascending);
    for (let i = 0; i < order.length; i++) {
      const e = this.episodes.get(order[i]) as DeferralEpisode;
      if (e.resolved || e.recompute) continue;
      if (e.phase === DEFER_RETRY) {
        this.markKnown(e.keys);
        const state = this.awaitedState(e.keys);
        if (state === CPU_HIT) e.resolved = true;
        else if (state === CPU_HIT_PENDING) e.phase = DEFER_PROMOTING;
        else if (this.host.firePromotion(e.keys, 0, e.keys.length, e.tier)) {
          e.phase = DEFER_PROMOTING;
          e.hasJob = true;
        } else e.recompute = true;
      } else if (e.checkedVersion !== this.cpu.version) {
        const state = this.awaitedState(e.keys);
        if (state === CPU_HIT) e.resolved = true;
        else if (state === CPU_MISS) e.recompute = true;
        else e.checkedVersion = this.cpu.version;
      }
      if (!e.resolved && !e.recompute && now - e.startTick > MAX_DEFER_TICKS) e.recompute = true;
    }
  }

  /** CPU_HIT when every key is readable, CPU_MISS when any is absent, else CPU_HIT_PENDING. */
  private awaitedState(keys: readonly number[]): CpuLookup {
    let allHit = true;
    for (let i = 0; i < keys.length; i++) {
      const s = this.cpu.lookup(keys[i]);
      if (s === CPU_MISS) return CPU_MISS;
      if (s === CPU_HIT_PENDING) allHit = false;
    }
    return allHit ? CPU_HIT : CPU_HIT_PENDING;
  }

  private allKnown(keys: readonly number[]): boolean {
    for (let i = 0; i < keys.length; i++) if (this.known.get(keys[i]) === -1) return false;
    return true;
  }

  private markKnown(keys: readonly number[]): void {
    for (let i = 0; i < keys.length; i++) this.known.set(keys[i], 0);
  }
}

function episode(phase: DeferralEpisode['phase'], keys: number[], tier: number, startTick: number): DeferralEpisode {
  return { phase, keys, tier, hasJob: false, startTick, resolved: false, recompute: false, checkedVersion: -1 };
}

function ascending(a: number, b: number): number {
  return a - b;
}
