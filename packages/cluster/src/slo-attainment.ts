import type { CompletionLog } from './completion-log.js';

/** The run-wide targets (µs, 0 = none); a request's own TTFT target wins over `sloTtftUs`. */
export interface SloTargets {
  readonly sloTtftUs: number;
  readonly sloE2eUs: number;
}

export interface SloAttainment {
  /** Share of completed requests whose client-observed TTFT met its target (per-request or --slo-ttft). */
  ttft: number | null;
  /** Share meeting --slo-e2e. */
  e2e: number | null;
  /** Share meeting every target that applies to it. */
  overall: number | null;
  /** Completed requests per second that met every target. */
  goodput_rps: number;
  requests_with_target: number;
}


/** null when no target applies; otherwise whether every applicable target was met. */
export function meetsTargets(ttftUs: number, e2eUs: number, perRequestTtftUs: number, opts: SloTargets): boolean | null {
  const ttftTarget = perRequestTtftUs > 0 ? perRequestTtftUs : opts.sloTtftUs;
  const e2eTarget = opts.sloE2eUs;
  if (ttftTarget <= 0 && e2eTarget <= 0) return null;
  return (ttftTarget <= 0 || ttftUs <= ttftTarget) && (e2eTarget <= 0 || e2eUs <= e2eTarget);
}

/** SLO attainment over every completion of the log (client-observed: network delay included). */
export function sloAttainment(log: CompletionLog, opts: SloTargets, completed: number, durationUs: number): SloAttainment {
  let withTtft = 0;
  let metTtft = 0;
  let withE2e = 0;
  let metE2e = 0;
  let withAny = 0;
  let metAll = 0;
  const ttftUs = log.ttftUs.view();
  const e2eUs = log.e2eUs.view();
  const netUs = log.networkDelayUs.view();
  const targetUs = log.sloTargetUs.view();
  for (let i = 0; i < ttftUs.length; i++) {
    const net = netUs[i];
    const t = ttftUs[i] + net;
    const e = e2eUs[i] + net;
    const own = targetUs[i];
    const tt = own > 0 ? own : opts.sloTtftUs;
    if (tt > 0) {
      withTtft++;
      if (t <= tt) metTtft++;
    }
    if (opts.sloE2eUs > 0) {
      withE2e++;
      if (e <= opts.sloE2eUs) metE2e++;
    }
    const v = meetsTargets(t, e, own, opts);
    if (v !== null) {
      withAny++;
      if (v) metAll++;
    }
  }
  return {
    ttft: withTtft === 0 ? null : metTtft / withTtft,
    e2e: withE2e === 0 ? null : metE2e / withE2e,
    overall: withAny === 0 ? null : metAll / withAny,
    goodput_rps: durationUs > 0 ? (withAny === 0 ? completed : metAll) / (durationUs / 1e6) : 0,
    requests_with_target: withAny,
  };
}
