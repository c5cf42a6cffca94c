import type { GapSampler } from './arrivals.js';
import type { LengthSampler } from './distributions.js';
import type { GoRand } from './go-rand/go-rand.js';
import type { ClientSpec, WindowSpec, WorkloadSpec } from './spec-schema.js';

// The pieces of BLIS's generator (sim/workload/generator.go, client.go) that fix which numbers
// its streams give to which request, so that a spec generates here the requests it generates there.

/** BLIS draws token ids in [0, 128000) (sim.MaxTokenID), one `Intn` per token. */
export const MAX_TOKEN_ID = 128_000;

/**
 * Advances `rng` past the ids of `count` tokens. Only the count matters here (prompts are hashed
 * by their identity, not their ids), but the draws move BLIS's stream, so they are made.
 */
export function drawTokenIds(rng: GoRand, count: number): void {
  rng.skipIntn(MAX_TOKEN_ID, count);
}

/**
 * Every client's rate in requests per µs, BLIS's normalizeRateFractions: `aggregate_rate ×
 * fraction / Σ fractions / 1e6`; when any client has lifecycle windows, the sum takes only the
 * clients whose windows overlap this one's (a client without windows overlaps every client), and
 * a client with fraction 0 gets rate 0.
 */
export function clientRatesPerUs(spec: Pick<WorkloadSpec, 'aggregate_rate' | 'clients'>): number[] {
  const clients = spec.clients;
  if (!clients.some((c) => c.lifecycle !== undefined && c.lifecycle.windows.length > 0)) {
    const total = clients.reduce((a, c) => a + c.rate_fraction, 0);
    if (total === 0) return clients.map(() => 0);
    return clients.map((c) => (spec.aggregate_rate * (c.rate_fraction / total)) / 1e6);
  }
  // Cohort members share one lifecycle object: the co-active sum is computed once per lifecycle
  // (still added client by client in spec order, as BLIS adds it, so that it rounds alike).
  const sums = new Map<unknown, number>();
  const overlaps = new Map<unknown, Map<unknown, boolean>>();
  const overlap = (a: ClientSpec, b: ClientSpec) => {
    let row = overlaps.get(a.lifecycle);
    if (row === undefined) overlaps.set(a.lifecycle, (row = new Map()));
    let v = row.get(b.lifecycle);
    if (v === undefined) row.set(b.lifecycle, (v = windowsOverlap(a, b)));
    return v;
  };
  return clients.map((c) => {
    if (c.rate_fraction <= 0) return 0;
    let coActive = sums.get(c.lifecycle);
    if (coActive === undefined) {
      coActive = 0;
      for (const o of clients) if (o.rate_fraction > 0 && overlap(c, o)) coActive += o.rate_fraction;
      sums.set(c.lifecycle, coActive);
    }
    return coActive === 0 ? 0 : (spec.aggregate_rate * (c.rate_fraction / coActive)) / 1e6;
  });
}

function windowsOverlap(a: ClientSpec, b: ClientSpec): boolean {
  const wa = a.lifecycle?.windows ?? [];
  const wb = b.lifecycle?.windows ?? [];
  if (wa.length === 0 || wb.length === 0) return true;
  return wa.some((x) => wb.some((y) => x.start_us < y.end_us && y.start_us < x.end_us));
}

/** Whether `t` falls in one of the windows, each `[start_us, end_us)` (BLIS's isInActiveWindow). */
export function inActiveWindow(t: number, windows: readonly WindowSpec[]): boolean {
  return windows.some((w) => t >= w.start_us && t < w.end_us);
}

/** The latest end of the windows (BLIS's lastWindowEndUs): no arrival comes after it. */
export function lastWindowEnd(windows: readonly WindowSpec[]): number {
  return windows.reduce((a, w) => Math.max(a, w.end_us), 0);
}

/**
 * One lifecycle window on BLIS's per-window generator (generateRequestsForWindow): `count` gaps
 * drawn from the client's stream, each rescaled by `(end − start) / Σ gaps` and truncated to a
 * whole µs, the last taking the rounding residual so that the gaps end exactly at `end`;
 * arrivals are their running sums from `start`, and the first at or after `end` (always the last)
 * ends the window. BLIS draws all gaps before any request's lengths and tokens; here a copy of
 * the stream taken before the gaps replays them one at a time, so a window holds one arrival
 * whatever its count, while the stream itself moves on to the lengths exactly as BLIS's does.
 */
export class WindowCursor {
  /** The client's stream: lengths and tokens of this window's requests. */
  rng: GoRand | undefined;
  private iats: GoRand | undefined;
  private scale = 0;
  private drawn = 0;
  private rescaledSum = 0;
  private time = 0;

  constructor(
    readonly client: number,
    /** The window's position among all windows, for ties (BLIS's stable sort keeps generation order). */
    readonly order: number,
    readonly start: number,
    readonly end: number,
    private readonly count: number,
    private readonly gap: GapSampler,
    readonly input: LengthSampler,
    readonly output: LengthSampler,
  ) {}

  /** Draws the window's gaps from `rng` (which then stands at its first request's lengths). */
  begin(rng: GoRand): void {
    this.rng = rng;
    this.iats = rng.clone();
    let sum = 0;
    for (let k = 0; k < this.count; k++) sum += this.gap(rng);
    this.scale = (this.end - this.start) / sum;
    this.time = this.start;
    this.drawn = 0;
    this.rescaledSum = 0;
  }

  /** Ends the window early: it sends nothing more. */
  finish(): void {
    this.drawn = this.count;
  }

  /** The next arrival (µs), or undefined when the window has no more. */
  nextArrival(): number | undefined {
    if (this.drawn >= this.count || this.iats === undefined) return undefined;
    const iat = this.gap(this.iats);
    this.drawn++;
    const r = this.drawn === this.count ? this.end - this.start - this.rescaledSum : Math.trunc(iat * this.scale);
    this.rescaledSum += r;
    this.time += r;
    if (this.time >= this.end) {
      this.drawn = this.count;
      return undefined;
    }
    return this.time;
  }
}
