import type { SimulationConfigInput } from '@blis/cluster';
import { describeFound } from '@blis/policies/internal';
/** Parsed flag values by camel-case name (build-config's FlagValues). */
type FlagValues = Record<string, unknown>;
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

/** `--slo-targets "critical=100000,standard=500000"` as class -> µs; issues for what is malformed. */
export function parseSloTargets(text: string, issues: UsageIssue[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? '' : pair.slice(0, eq).trim();
    const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (eq < 0 || key === '') {
      issues.push({ where: '--slo-targets', expected: 'comma-separated class=µs pairs (e.g. "critical=100000,standard=500000")', found: describeFound(pair) });
      continue;
    }
    if (!/^[0-9]+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
      issues.push({ where: '--slo-targets', expected: `a positive integer number of µs for ${key}`, found: describeFound(value) });
      continue;
    }
    out[key] = Number(value);
  }
  return out;
}

/** Flags that only shape the gateway: given without --flow-control they would do nothing. */
const GATEWAY_ONLY: readonly [flag: string, key: string][] = [
  ['saturation-detector', 'saturationDetector'],
  ['max-concurrency', 'maxConcurrency'],
  ['dispatch-order', 'dispatchOrder'],
  ['slo-targets', 'sloTargets'],
  ['fairness-policy', 'fairnessPolicy'],
  ['max-gateway-queue-depth', 'maxGatewayQueueDepth'],
  ['per-band-capacity', 'perBandCapacity'],
  ['usage-limit-threshold', 'usageLimitThreshold'],
  ['dispatch-tick-interval', 'dispatchTickInterval'],
  ['request-ttl', 'requestTtl'],
  ['queue-shedding', 'queueShedding'],
  ['in-flight-eviction', 'inFlightEviction'],
  ['saturation-limit', 'saturationLimit'],
];

/** The `flowControl` block of the config from the flags (the library's schema checks the rest). */
export function flowControlConfig(f: FlagValues): NonNullable<SimulationConfigInput['flowControl']> {
  const issues: UsageIssue[] = [];
  // BLIS warns and ignores these without --flow-control; a flag that silently does nothing is refused here.
  if (f.flowControl !== true)
    for (const [flag, key] of GATEWAY_ONLY)
      if (f[key] !== undefined) issues.push({ where: `--${flag}`, expected: '--flow-control with it (without it there is no gateway queue)', found: typeof f[key] === 'boolean' ? 'the switch on its own' : describeFound(String(f[key])) });
  if (f.sloTargets !== undefined && f.dispatchOrder !== 'slo-deadline' && f.flowControl === true)
    issues.push({ where: '--slo-targets', expected: '--dispatch-order slo-deadline with it (only that order reads targets)', found: describeFound(String(f.sloTargets)) });
  const sloTargetsUs = f.sloTargets === undefined ? undefined : parseSloTargets(f.sloTargets as string, issues);
  if (issues.length > 0) throw new UsageError(issues);
  return {
    enabled: f.flowControl === true,
    saturationDetector: f.saturationDetector as 'utilization' | 'concurrency' | 'never' | undefined,
    maxGatewayQueueDepth: f.maxGatewayQueueDepth as number | undefined,
    queueDepthThreshold: f.queueDepthThreshold as number | undefined,
    kvUtilizationThreshold: f.kvCacheUtilThreshold as number | undefined,
    maxConcurrency: f.maxConcurrency as number | undefined,
    saturationLimit: f.saturationLimit as number | undefined,
    dispatchOrder: f.dispatchOrder as 'fifo' | 'priority' | 'slo-deadline' | undefined,
    sloTargetsUs,
    fairnessPolicy: f.fairnessPolicy as 'global-strict' | 'round-robin' | undefined,
    perBandCapacity: f.perBandCapacity as number | undefined,
    usageLimitThreshold: f.usageLimitThreshold as number | undefined,
    dispatchTickIntervalUs: f.dispatchTickInterval as number | undefined,
    requestTtlUs: f.requestTtl as number | undefined,
    queueShedding: f.queueShedding === true,
    inFlightEviction: f.inFlightEviction === true,
  };
}
