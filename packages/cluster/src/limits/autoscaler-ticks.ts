import type { SimulationConfig } from '../config-schema.js';
import { RunLimitError, type RunLimitIssue } from './run-limit-error.js';
import { RUN_LIMITS } from './run-limits.js';

const LIMIT = RUN_LIMITS.maxAutoscalerEvaluations;
const PATH = ['autoscaling', 'intervalUs'] as const;

/**
 * The autoscaler evaluations a run plans at least, before it starts: one per interval while
 * requests still arrive (the evaluations go on until the run drains, so this is a lower bound).
 * Known when the arrivals' span is: a synthetic workload's count over its rate, cut at the
 * horizon. Other workloads are held to the limit while they run ({@link checkAutoscalerTicks}).
 */
export function autoscalerTickIssues(config: SimulationConfig): RunLimitIssue[] {
  const as = config.autoscaling;
  const w = config.workload;
  if (as === undefined || as.intervalUs <= 0 || w.kind !== 'synthetic') return [];
  const arrivalsUs = (w.numRequests / w.rate) * 1e6;
  const spanUs = Math.min(arrivalsUs, config.horizonUs ?? Number.POSITIVE_INFINITY);
  const planned = Math.floor(spanUs / as.intervalUs) + 1;
  if (!(planned > LIMIT)) return [];
  const over = spanUs === arrivalsUs ? `the ${w.numRequests} arrivals at ${w.rate} req/s` : 'the horizon';
  return [
    {
      path: PATH,
      expected: `at most ${LIMIT} autoscaler evaluations (an interval of at least ${Math.ceil(spanUs / LIMIT)} µs over ${over}, ${spanUs} µs)`,
      found: `${as.intervalUs} µs: ${planned} evaluations`,
    },
  ];
}

/** Stops a run whose evaluations pass the limit as it goes (a trace's or a spec's span is only known then). */
export function checkAutoscalerTicks(ticks: number, intervalUs: number, now: number): void {
  if (ticks <= LIMIT) return;
  throw new RunLimitError([
    { path: PATH, expected: `at most ${LIMIT} autoscaler evaluations (a longer interval)`, found: `${intervalUs} µs: evaluation ${ticks} at ${now} µs, with requests still to serve` },
  ]);
}
