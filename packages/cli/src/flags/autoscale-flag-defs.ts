import type { FlagDef } from './flags.js';

// The autoscaling flags' definitions alone: building the program (`--help`, every command's
// options) needs them, and not the policy registry that autoscale-flags.ts reads them with.

const AUTOSCALING = 'Autoscaling';

export const AUTOSCALE_FLAGS: readonly FlagDef[] = [
  { name: 'model-autoscaler-interval-us', kind: 'nonNegNumber', group: AUTOSCALING, description: 'µs between autoscaler evaluations, 0 = off (BLIS\'s flag); overrides autoscaler.interval_us of --policy-config', defaultText: '0' },
  { name: 'autoscaler-enabled', kind: 'bool', group: AUTOSCALING, description: 'turn the autoscaler on, every 30 s unless --model-autoscaler-interval-us or --policy-config gives an interval' },
  { name: 'autoscaler-policy', kind: 'string', group: AUTOSCALING, description: 'wva-saturation, threshold, target-utilization, queue-depth (see `blis policies`), ./module.mjs or ./tree.yaml (a decision tree)', defaultText: 'wva-saturation' },
  { name: 'autoscaler-min', kind: 'nonNegInt', group: AUTOSCALING, description: 'fewest replicas per scaling group (0 allows scale to zero)', defaultText: '1' },
  { name: 'autoscaler-max', kind: 'posInt', group: AUTOSCALING, description: 'most replicas per scaling group; unset: unbounded (node pools still limit placement)' },
  { name: 'autoscaler-cooldown', kind: 'duration', group: AUTOSCALING, description: 'no scale action within this long of the previous one (e.g. 60s)', defaultText: '0' },
  { name: 'scale-up-window', kind: 'duration', group: AUTOSCALING, description: 'a scale-up signal must persist this long before it acts (e.g. 4m)', defaultText: '0' },
  { name: 'scale-down-window', kind: 'duration', group: AUTOSCALING, description: 'a scale-down signal must persist this long before it acts (e.g. 5m)', defaultText: '0' },
  { name: 'provisioning-delay', kind: 'duration', group: AUTOSCALING, description: 'mean time until a new node is ready (every node pool\'s, or the implicit pool\'s)', defaultText: '0' },
  { name: 'loading-delay', kind: 'duration', group: AUTOSCALING, description: 'mean time a placed replica loads the model before it serves', defaultText: '0' },
  { name: 'warmup-duration', kind: 'duration', group: AUTOSCALING, description: 'a new replica stops warming up after this long (0 = no time limit)', defaultText: '0' },
  { name: 'warmup-requests', kind: 'nonNegInt', group: AUTOSCALING, description: 'a new replica stops warming up once this many of its requests complete (0 = none)', defaultText: '0' },
  { name: 'warmup-ttft-factor', kind: 'posNumber', group: AUTOSCALING, description: 'TTFT multiplier (>= 1) of requests served by a warming-up replica', defaultText: '1' },
  { name: 'drain-policy', kind: 'string', group: AUTOSCALING, description: 'what a replica scaled down does with its requests: wait (finishes them), immediate (drops them), redirect (sends its queue back through admission)', defaultText: 'wait' },
];
