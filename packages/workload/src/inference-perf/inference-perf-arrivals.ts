import { GoRand, goSubsystemRand } from '../go-rand/index.js';
import type { IpClient, IpPlan } from './inference-perf-plan.js';

/** BLIS's token ids are drawn in [0, 128000) (sim.MaxTokenID). */
const MAX_TOKEN_ID = 128_000;

/** A generated arrival: the first round of a session, or a one-off request. */
export interface IpArrival {
  arrivalUs: number;
  client: number;
  /** `sess_<n>` for a multi-turn client, '' otherwise. */
  sessionId: string;
  round: number;
}

/**
 * The arrivals BLIS's generator makes for an expanded inference-perf spec, draw for draw: the
 * `workload-gen` stream (the run seed XOR FNV-1a of the name) first draws every group's prefix
 * tokens, then one seed per client; each client's own stream draws its gaps, and between two
 * gaps the tokens of the request it just made (which is why they are drawn here although only
 * their count matters to us: they move the stream). The result is sorted by arrival, stably in
 * client order, and cut at `maxRequests`, as BLIS's GenerateRequests does. For multi-turn
 * clients every round is placed open-loop first (BLIS does, to sort and cut), and only first
 * rounds are kept: the rest follow completions.
 */
export function inferencePerfArrivals(plan: IpPlan, seed: number, horizonUs: number, maxRequests: number | undefined): IpArrival[] {
  const workload = goSubsystemRand(BigInt(seed), 'workload-gen');
  const drawTokens = (rng: GoRand, n: number) => {
    for (let i = 0; i < n; i++) rng.intn(MAX_TOKEN_ID);
  };
  const seen = new Set<string>();
  for (const c of plan.clients) {
    if (seen.has(c.group)) continue;
    seen.add(c.group);
    drawTokens(workload, plan.prefixLength);
  }
  const perClientCap = maxRequests !== undefined ? 2 * maxRequests : Number.POSITIVE_INFINITY;
  const out: IpArrival[] = [];
  plan.clients.forEach((c, index) => {
    const own = GoRand.fromSeed(workload.int63());
    const gaps = gapSource(c, own);
    if (c.session !== undefined) {
      const gap = gaps();
      if (gap === 0) return;
      const start = (c.window?.start ?? 0) + gap;
      if (start >= horizonUs || !inWindow(c, start)) return;
      const sessionId = `sess_${own.int63()}`;
      let t = start;
      for (let round = 0; round < c.session.maxRounds; round++) {
        if (t >= horizonUs) break;
        if (inWindow(c, t)) out.push({ arrivalUs: t, client: index, sessionId, round });
        // BLIS's open-loop placement: the think time plus 1 µs per output token.
        t += c.session.thinkTimeUs + plan.outputLength;
      }
      return;
    }
    let t = 0;
    let made = 0;
    while (t < horizonUs && made < perClientCap) {
      const gap = gaps();
      if (gap === 0) break;
      t += gap;
      if (t >= horizonUs) break;
      if (!inWindow(c, t)) {
        if (t >= c.window!.end) break;
        continue;
      }
      drawTokens(own, plan.questionLength + plan.outputLength);
      out.push({ arrivalUs: t, client: index, sessionId: '', round: 0 });
      made++;
    }
  });
  // Array.prototype.sort is stable: ties keep client order.
  out.sort((a, b) => a.arrivalUs - b.arrivalUs);
  const kept = maxRequests !== undefined && out.length > maxRequests ? out.slice(0, maxRequests) : out;
  return plan.multiTurn ? kept.filter((a) => a.round === 0) : kept;
}

function inWindow(c: IpClient, t: number): boolean {
  return c.window === undefined || (t >= c.window.start && t < c.window.end);
}

/** A client's gap sampler; 0 means exhausted (the normalised timer's last gap is spent). */
function gapSource(c: IpClient, own: GoRand): () => number {
  const s = c.sampler;
  if (s.kind === 'poisson') {
    if (c.customFactory) own.int63(); // the factory's sub-stream seed, unused by a Poisson sampler
    return () => Math.max(1, Math.trunc(own.expFloat64() / s.ratePerUs));
  }
  const sub = GoRand.fromSeed(own.int63());
  const rate = s.count / s.durationUs;
  const raw = new Float64Array(s.count);
  let sum = 0;
  for (let i = 0; i < s.count; i++) raw[i] = sub.expFloat64() / rate;
  for (let i = 0; i < s.count; i++) sum += raw[i];
  const scale = s.durationUs / sum;
  let next = 0;
  return () => (next < s.count ? Math.max(1, Math.trunc(raw[next++] * scale)) : 0);
}
