import type { FlagDef } from './flags.js';

// BLIS's `blis convert` subcommands, with its flag names, defaults and meaning (cmd/convert.go
// at f90a1e3a). Each prints a v2 WorkloadSpec YAML on stdout.

const GROUP = 'Options';

export const CONVERT_PRESET_FLAGS: readonly FlagDef[] = [
  { name: 'name', kind: 'string', group: GROUP, description: 'preset name (chatbot, contentgen, summarization, multidoc, or one of --defaults-filepath); required' },
  { name: 'rate', kind: 'posNumber', group: GROUP, defaultText: '1', description: 'request rate in req/s' },
  { name: 'num-requests', kind: 'posInt', group: GROUP, defaultText: '100', description: 'number of requests' },
  { name: 'defaults-filepath', kind: 'string', group: GROUP, description: "a BLIS defaults.yaml whose workloads: section holds the preset (default: the shipped catalogue, BLIS HEAD's presets)" },
];

export const CONVERT_SERVEGEN_FLAGS: readonly FlagDef[] = [
  { name: 'path', kind: 'string', group: GROUP, description: 'ServeGen data directory (chunk-<id>-trace.csv and chunk-<id>-dataset.json files); required' },
  { name: 'window-duration-seconds', kind: 'posInt', group: GROUP, defaultText: '600', description: 'duration of each time period in seconds' },
  { name: 'drain-timeout-seconds', kind: 'nonNegInt', group: GROUP, defaultText: '180', description: 'gap between periods in seconds, where no new requests arrive' },
  { name: 'time', kind: 'string', choices: ['midnight', 'morning', 'afternoon'], group: GROUP, description: 'keep only the cohorts of one period (language and multimodal data)' },
];

export const CONVERT_INFERENCE_PERF_FLAGS: readonly FlagDef[] = [
  { name: 'spec', kind: 'string', group: GROUP, description: 'workload spec YAML with an inference_perf: section; required' },
];
