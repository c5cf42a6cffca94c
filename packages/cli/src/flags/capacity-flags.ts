import type { FlagDef } from './flags.js';

const CAPACITY = 'Capacity search';

/** Flags only `blis capacity` has. */
export const CAPACITY_FLAGS: readonly FlagDef[] = [
  { name: 'search', kind: 'string', choices: ['rate', 'instances'], group: CAPACITY, description: 'rate: the largest arrival rate at --num-instances; instances: the fewest instances at the configured rate', defaultText: 'rate' },
  { name: 'target', kind: 'string', group: CAPACITY, description: 'required: latency limits every probe must meet, "[class:]metric_stat=limit,...", e.g. "ttft_p99=500ms,critical:e2e_p90=30s"' },
  { name: 'seeds', kind: 'string', group: CAPACITY, description: 'seeds each probe runs, "1,2,3"; a probe passes when every seed does; default: --seed' },
  { name: 'tolerance', kind: 'fraction', group: CAPACITY, description: 'rate search: bisect until (failing - passing) <= tolerance x failing', defaultText: '0.05' },
  { name: 'min-rate', kind: 'posNumber', group: CAPACITY, description: 'lowest rate to try (req/s, or x the recorded rate for a trace)', defaultText: 'the configured rate / 1024' },
  { name: 'max-rate', kind: 'posNumber', group: CAPACITY, description: 'highest rate to try', defaultText: 'the configured rate x 1024' },
  { name: 'min-instances', kind: 'posInt', group: CAPACITY, description: 'fewest instances to try', defaultText: '1' },
  { name: 'max-instances', kind: 'posInt', group: CAPACITY, description: 'most instances to try', defaultText: '64' },
  { name: 'min-completion', kind: 'unitInterval', group: CAPACITY, description: 'share of injected requests that must complete for a run to pass', defaultText: '1' },
];

/**
 * `blis run` flags that shape one run's report, not the runs a search compares: refused with
 * `blis capacity` (its stdout is the search's report).
 */
export const CAPACITY_EXCLUDED_FLAGS: readonly string[] = [
  'log',
  'results-path',
  'report',
  'timeseries-interval',
  'trace-level',
  'trace-output',
  'decision-trace',
  'metrics-path',
  'counterfactual-k',
  'summarize-trace',
  'summary-max-tokens',
  'summary-strategy',
  'tail-ratio-threshold',
  'fitness-weights',
  'slo-ttft',
  'slo-itl',
  'slo-e2e',
];
