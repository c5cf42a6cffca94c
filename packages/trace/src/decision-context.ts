import type { OutcomeRecord, RoutingRecord } from './records.js';

/** What a routing decision looked like, kept until the request's outcome arrives. */
export interface DecisionContext {
  seq: number;
  ts: number;
  id: string;
  slo: string;
  in: number;
  blocks: number;
  prefix: string;
  reason: string;
  scored: 'policy' | 'load';
  inst: number;
  regret: number;
  chosenScore: number;
  /** Best-scored instance (its index; ties to the lower position) and its score. */
  bestInst: number;
  bestScore: number;
  /** Effective load (queue + batch + in flight), KV utilisation and prefix blocks held, as seen. */
  chosenLoad: number;
  chosenKv: number;
  chosenPb: number;
  bestLoad: number;
  /** Instance holding the most leading prompt blocks (lowest position on ties) and how many. */
  pbMaxInst: number;
  pbMax: number;
  pbMaxLoad: number;
}

/** A decision with the outcome of its request. */
export interface JudgedDecision {
  ctx: DecisionContext;
  outcome: OutcomeRecord;
}

/**
 * The context of a routing record: the chosen, best-scored and most-prefix-holding instances as
 * the router saw them. Scores and snapshots are by position (in the record's pool, under P/D);
 * instances are named by index.
 */
export function decisionContext(r: RoutingRecord): DecisionContext {
  const pool = r.pool;
  const index = (pos: number) => (pool === undefined ? pos : pool[pos]);
  const chosen = pool === undefined ? r.inst : pool.indexOf(r.inst);
  let best = 0;
  for (let i = 1; i < r.scores.length; i++) if (r.scores[i] > r.scores[best]) best = i;
  let pbMaxPos = 0;
  for (let i = 1; i < r.snap.length; i++) if (r.snap[i].pb > r.snap[pbMaxPos].pb) pbMaxPos = i;
  const load = (i: number) => (r.snap[i] === undefined ? 0 : r.snap[i].q + r.snap[i].b + r.snap[i].f);
  return {
    seq: r.seq,
    ts: r.ts,
    id: r.id,
    slo: r.slo,
    in: r.in,
    blocks: r.blocks,
    prefix: r.prefix,
    reason: r.reason,
    scored: r.scored,
    inst: r.inst,
    regret: r.regret,
    chosenScore: r.scores[chosen],
    bestInst: index(best),
    bestScore: r.scores[best],
    chosenLoad: load(chosen),
    chosenKv: r.snap[chosen]?.kv ?? 0,
    chosenPb: r.snap[chosen]?.pb ?? 0,
    bestLoad: load(best),
    pbMaxInst: index(pbMaxPos),
    pbMax: r.snap[pbMaxPos]?.pb ?? 0,
    pbMaxLoad: load(pbMaxPos),
  };
}
