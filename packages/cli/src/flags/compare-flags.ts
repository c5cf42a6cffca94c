/**
 * `blis run` flags `blis compare` lacks: the routing policy it varies, outputs written per run,
 * and the memory comparison (its runs are on worker threads; see docs/limits.md).
 */
export const COMPARE_EXCLUDED: readonly string[] = ['log', 'check-policies', 'policy-budget-ms', 'routing-policy', 'results-path', 'report', 'timeseries-interval', 'trace-level', 'trace-output', 'decision-trace', 'metrics-path', 'counterfactual-k', 'summarize-trace', 'summary-max-tokens', 'tail-ratio-threshold', 'summary-strategy'];
