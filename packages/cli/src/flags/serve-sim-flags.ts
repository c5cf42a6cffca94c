import type { FlagDef } from './flags.js';

const SERVER = 'Server';

/** `blis serve-sim`'s own flags, beside the `blis run` flags that describe the simulated deployment. */
export const SERVE_SIM_FLAGS: readonly FlagDef[] = [
  { name: 'host', kind: 'string', group: SERVER, description: 'address to listen on (loopback by default: the server is for tests and demos)', defaultText: '127.0.0.1' },
  { name: 'port', kind: 'nonNegInt', group: SERVER, description: 'port to listen on; 0 = any free port (the URL is printed on stdout)', defaultText: '8000' },
  { name: 'served-model-name', kind: 'string', group: SERVER, description: 'model name /v1/models lists; default: --model' },
  { name: 'default-output-tokens', kind: 'posInt', group: SERVER, description: 'answer length when a request sets no max_tokens', defaultText: '256' },
  { name: 'max-output-tokens', kind: 'posInt', group: SERVER, description: 'longest answer; a larger max_tokens stops here with finish_reason "stop"', defaultText: '4096' },
];

/** `blis run` flags `blis serve-sim` lacks: requests come over HTTP, and there is no one-run report. */
export const SERVE_SIM_EXCLUDED: readonly string[] = [
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
  'tail-ratio-threshold',
  'summary-strategy',
  'horizon',
  'fitness-weights',
];
