import type { FlagDef } from './flags.js';
import { LAZY_GENERATION_FLAG } from './closed-loop-flag-defs.js';
import { SIMULATION_FLAGS } from './run-flags.js';

const SERVER = 'Server';
const WORKLOAD = 'Workload';
const CLIENT = 'Client';
const OUTPUT = 'Output';

/** `blis run`'s workload flags, which `blis observe` takes as they are. */
const SHARED_WORKLOAD = [
  'prompt-tokens', 'prompt-tokens-stdev', 'prompt-tokens-min', 'prompt-tokens-max',
  'output-tokens', 'output-tokens-stdev', 'output-tokens-min', 'output-tokens-max',
  'prefix-tokens', 'workload', 'arrival-process', 'workload-spec', 'defaults-filepath',
];

/** Every flag of `blis observe`: BLIS's names and defaults. */
export const OBSERVE_FLAGS: readonly FlagDef[] = [
  { name: 'server-url', kind: 'string', group: SERVER, description: 'OpenAI-compatible server, http://host:port (required)' },
  { name: 'model', kind: 'string', group: SERVER, description: 'the model field of every request (required)' },
  { name: 'api-format', kind: 'string', choices: ['completions', 'chat'], group: SERVER, description: 'POST /v1/completions with a prompt, or /v1/chat/completions with one user message', defaultText: 'completions' },
  { name: 'api-key', kind: 'string', group: SERVER, description: 'sent as Authorization: Bearer <key>' },
  { name: 'server-type', kind: 'string', group: SERVER, description: 'recorded in the header (server.type)', defaultText: 'vllm' },
  { name: 'rate', kind: 'posNumber', group: WORKLOAD, description: 'arrival rate, requests per second; needed by flag-driven and preset workloads' },
  // A preset is named or not given: `distribution` (run's default name for no preset) is not one here.
  ...SIMULATION_FLAGS.filter((d) => SHARED_WORKLOAD.includes(d.name)).map((d) => (d.name === 'workload' ? { ...d, description: 'length preset: chatbot, contentgen, summarization, multidoc (the catalogue\'s), or one of --defaults-filepath\'s; needs --rate', defaultText: undefined } : d)),
  { name: 'num-requests', kind: 'posInt', group: WORKLOAD, description: 'requests to send, warm-up included; unset: the spec\'s num_requests (flag-driven workloads need this or --horizon)' },
  { name: 'seed', kind: 'int', group: WORKLOAD, description: 'workload and prompt-text seed; when given, also overrides a --workload-spec seed', defaultText: '42' },
  { name: 'horizon', kind: 'posInt', group: WORKLOAD, description: 'send no request arriving after this many µs (closed loop: after this long)' },
  { name: 'concurrency', kind: 'posInt', group: WORKLOAD, description: 'closed loop: BLIS\'s concurrency client of this many virtual users, generated as `blis run --concurrency` generates it, each sending its next request when the last is answered (with flag-driven lengths; not with --rate, --workload or --workload-spec)' },
  { name: 'think-time-ms', kind: 'nonNegInt', group: WORKLOAD, description: 'with --concurrency: a user\'s pause between an answer and its next request', defaultText: '0' },
  { name: 'think-time-dist', kind: 'string', group: WORKLOAD, description: 'with --concurrency, instead of --think-time-ms: pauses drawn from "constant:value=500ms" or "lognormal:mu=2.0,sigma=0.6[,min=3s][,max=30s]" (mu, sigma of ln seconds)' },
  { ...LAZY_GENERATION_FLAG, description: "BLIS's streaming generator; accepted and changes nothing here: requests are always generated as they are sent (the same requests as without it, as in BLIS)" },
  { name: 'max-concurrency', kind: 'posInt', group: CLIENT, description: 'requests in flight at most; with --concurrency it defaults to that', defaultText: '256' },
  { name: 'warmup-requests', kind: 'nonNegInt', group: CLIENT, description: 'send the first N requests but leave them out of the trace', defaultText: '0' },
  { name: 'prewarm-duration', kind: 'duration', group: CLIENT, description: 'before the workload, send small fixed requests at concurrency 4 for this long ("60s"); not recorded', defaultText: '0' },
  { name: 'no-streaming', kind: 'bool', group: CLIENT, description: 'send every request without streaming, a flag-driven workload\'s too (it streams by default); first/last chunk become first byte/end of body: no true TTFT' },
  { name: 'unconstrained-output', kind: 'bool', group: CLIENT, description: 'no min_tokens, and no max_tokens (chat) or 2147483647 (completions): the server picks answer lengths' },
  { name: 'timeout', kind: 'posInt', group: CLIENT, description: 'per-request limit in seconds, send to end of body; beyond it the request is recorded as timeout', defaultText: '300' },
  { name: 'rtt-ms', kind: 'nonNegNumber', group: CLIENT, description: 'measured network round trip, recorded in the header (network.measured_rtt_ms)', defaultText: '0' },
  { name: 'trace-header', kind: 'string', group: OUTPUT, description: 'write the TraceV2 header YAML here (required)' },
  { name: 'trace-data', kind: 'string', group: OUTPUT, description: 'write the TraceV2 data CSV here (required)' },
  { name: 'record-itl', kind: 'bool', group: OUTPUT, description: 'stream every request and write the time of each chunk that carries tokens to the ITL CSV' },
  { name: 'itl-output', kind: 'string', group: OUTPUT, description: 'the ITL CSV', defaultText: '<trace-data without .csv>.itl.csv' },
  { name: 'scrape-kv-metrics', kind: 'bool', group: OUTPUT, description: 'scrape Prometheus metrics before and after the workload and record the KV hit rate (header observed_kv_metrics)' },
  { name: 'kv-metrics-url', kind: 'string', group: OUTPUT, description: 'with --scrape-kv-metrics: where the metrics are', defaultText: '<server-url>/metrics' },
  { name: 'vllm-commit', kind: 'string', group: OUTPUT, description: 'with --scrape-kv-metrics: the server\'s vLLM commit, recorded beside the hit rate' },
  { name: 'slo-ttft', kind: 'string', group: OUTPUT, description: 'per-class TTFT goodput targets for the header, "critical=100ms,standard=500ms"' },
  { name: 'slo-itl', kind: 'string', group: OUTPUT, description: 'per-class mean ITL goodput targets for the header, "critical=20ms"' },
  { name: 'slo-e2e', kind: 'string', group: OUTPUT, description: 'per-class E2E goodput targets for the header, "critical=5s,standard=30s"' },
  { name: 'quiet', kind: 'bool', group: OUTPUT, description: 'no progress bar or notes on stderr' },
];
