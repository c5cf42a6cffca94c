import { AUTOSCALE_FLAGS } from './autoscale-flag-defs.js';
import { FLOW_CONTROL_FLAGS } from './flow-control-flag-defs.js';
import type { FlagDef } from './flags.js';

/**
 * `MAX_CLOCK_US` of `@blis/engine` (a test keeps them equal), written out so that the flag
 * tables, which `--version` and `--help` load, pull in no simulator code.
 */
export const HORIZON_MAX_US = Number.MAX_SAFE_INTEGER;

const MODEL = 'Model and latency';
const ENGINE = 'KV cache and batching';
const WORKLOAD = 'Workload';
const CLUSTER = 'Cluster and policies';
const PD = 'Prefill/decode disaggregation';
const OUTPUT = 'Output and analysis';
const LORA = 'LoRA adapters';
const LATENCY_MODELS = ['blackbox', 'roofline', 'trained-physics'] as const;
/** `MOE_COMM_BACKENDS` of `@blis/latency` (a test keeps them equal), written out like HORIZON_MAX_US. */
export const MOE_COMM_BACKEND_CHOICES = ['naive', 'allgather_reducescatter', 'pplx', 'deepep_high_throughput', 'deepep_low_latency', 'mori', 'flashinfer_all2allv'] as const;
/** BLIS's `--log` levels (results go to stdout whatever the level). */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'panic'] as const;

/** Every flag `blis run` and `blis replay` share, with BLIS's names and defaults. */
export const SIMULATION_FLAGS: readonly FlagDef[] = [
  { name: 'model', kind: 'string', group: MODEL, description: 'model id from the catalogue (picks its default GPU, TP and latency model)', defaultText: 'meta-llama/llama-3.1-8b-instruct' },
  { name: 'hardware', aliases: ['gpu'], kind: 'string', group: MODEL, description: 'GPU (H100, A100-80, A100-SXM, L40S); default: the model\'s' },
  { name: 'tp', kind: 'posInt', group: MODEL, description: 'tensor parallelism; default: the model\'s' },
  { name: 'dp', kind: 'posInt', group: MODEL, description: 'data-parallel ranks of --tp GPUs per instance (vLLM --data-parallel-size): each rank its own KV cache and 1/dp of the tokens, routed experts sharded over TP·DP GPUs; MoE models with trained-physics only', defaultText: '1' },
  { name: 'enable-expert-parallel', kind: 'bool', group: MODEL, description: 'routed experts owned whole by the TP·DP GPUs (vLLM --enable-expert-parallel); the same step time as slicing them, needed for an all-to-all --moe-comm-backend; MoE models with trained-physics only' },
  { name: 'moe-comm-backend', kind: 'string', choices: MOE_COMM_BACKEND_CHOICES, group: MODEL, description: 'MoE dispatch/combine between DP ranks (vLLM VLLM_ALL2ALL_BACKEND): naive and allgather_reducescatter move every token\'s hidden state, the others (with --enable-expert-parallel) each token to its top-k experts; needs --dp > 1', defaultText: 'allgather_reducescatter' },
  { name: 'latency-model', kind: 'string', choices: LATENCY_MODELS, group: MODEL, description: 'latency model (BLIS HEAD\'s default is trained-physics)', defaultText: 'trained-physics; blackbox without an HF config, with 3 --beta-coeffs or with --vllm-version' },
  { name: 'alpha-coeffs', kind: 'triple', group: MODEL, description: 'alpha0,alpha1,alpha2 in µs (blackbox/roofline: queueing base, per input token, per output token; trained-physics: queueing, post-decode, per output token)' },
  { name: 'beta-coeffs', kind: 'numbers', group: MODEL, description: 'blackbox: beta0,beta1,beta2 in µs (step base, per cache-miss token, per decode token); trained-physics: 7 to 11 values, BLIS HEAD\'s when omitted' },
  { name: 'vllm-version', kind: 'string', group: MODEL, description: 'pick the coefficients trained for this vLLM image' },
  { name: 'model-config', aliases: ['model-config-folder'], kind: 'string', group: MODEL, description: 'HF config.json (or its folder) for roofline and trained-physics' },
  { name: 'hardware-config', kind: 'string', group: MODEL, description: 'hardware_config.json with extra GPUs' },
  {
    name: 'defaults-filepath',
    kind: 'string',
    group: MODEL,
    description:
      "a BLIS defaults.yaml read instead of the shipped catalogue for each model's default GPU and TP, the trained-physics coefficients, the --workload presets, the LoRA cost defaults and the KV offload device classes; model_configs/<name>/config.json and hardware_config.json beside it are used when present",
    defaultText: "the shipped catalogue (BLIS HEAD's defaults.yaml)",
  },
  { name: 'total-kv-blocks', kind: 'posInt', group: ENGINE, description: 'KV blocks per instance (default: derived from GPU memory)' },
  { name: 'gpu-memory-utilization', kind: 'fraction', group: ENGINE, description: 'share of GPU memory for weights + KV', defaultText: '0.9' },
  { name: 'block-size-in-tokens', aliases: ['block-size'], kind: 'posInt', group: ENGINE, description: 'tokens per KV block', defaultText: '16' },
  { name: 'max-num-seqs', aliases: ['max-num-running-reqs'], kind: 'posInt', group: ENGINE, description: 'max running requests per instance', defaultText: '256' },
  { name: 'max-num-batched-tokens', aliases: ['max-num-scheduled-tokens'], kind: 'posInt', group: ENGINE, description: 'token budget per step', defaultText: '2048' },
  { name: 'long-prefill-token-threshold', kind: 'nonNegInt', group: ENGINE, description: 'per-request prefill chunk cap (0 = off)', defaultText: '0' },
  { name: 'prefix-hit-prefill-start', kind: 'string', choices: ['cached', 'zero'], group: ENGINE, description: 'where the latency model starts a prefix-cache hit\'s first prefill chunk: at the cached length, or at 0 as BLIS does (only roofline reads it)', defaultText: 'cached' },
  { name: 'max-model-len', kind: 'nonNegInt', group: ENGINE, description: 'context window: drop requests whose prompt + output exceeds it (0 = none)', defaultText: '0' },
  { name: 'kv-cpu-blocks', kind: 'nonNegInt', group: ENGINE, description: 'CPU tier blocks behind each GPU cache, BLIS\'s legacy mirror model (0 = none); not with --kv-offload-config', defaultText: '0' },
  { name: 'kv-transfer-bandwidth', kind: 'posNumber', group: ENGINE, description: 'CPU tier reload rate in tokens per µs: a reloaded block costs ceil(block size / this) µs (BLIS\'s help calls it blocks per tick)', defaultText: '100' },
  { name: 'kv-transfer-base-latency', kind: 'nonNegInt', group: ENGINE, description: 'µs added per block reloaded from the CPU tier (BLIS\'s help says per transfer)', defaultText: '0' },
  { name: 'kv-offload-threshold', kind: 'unitInterval', group: ENGINE, description: 'deprecated: accepted in [0, 1] and ignored, as in BLIS (the CPU tier mirrors every full block)', defaultText: '0.9' },
  { name: 'kv-offload-config', kind: 'string', group: ENGINE, description: 'YAML file with BLIS\'s kv_offload: block: a CPU staging tier and secondary tiers; on replay a trace header\'s block wins' },
  { name: 'kv-reload-recompute', kind: 'bool', group: ENGINE, description: 'charge prefill compute for blocks reloaded from a CPU tier in the step that reloads them, as BLIS does' },
  { name: 'lora-config', kind: 'string', group: LORA, description: "YAML file with BLIS's lora: block: the adapter registry (id, rank), adapter_capacity, cost coefficients; its adapters' HBM comes out of a derived KV budget, never out of --total-kv-blocks" },
  { name: 'lora-adapter-capacity', kind: 'nonNegInt', group: LORA, description: 'resident adapter slots per instance (vLLM --max-loras); over --lora-config; 0 with adapters declared is refused', defaultText: '1 (vLLM\'s default) when adapters are declared' },
  { name: 'lora-load-base-latency-us', kind: 'nonNegNumber', group: LORA, description: 'fixed µs of a cold adapter load; over --lora-config', defaultText: '1500' },
  { name: 'lora-load-bandwidth-bytes-us', kind: 'posNumber', group: LORA, description: 'adapter load bandwidth, bytes per µs; over --lora-config', defaultText: '2000000' },
  { name: 'lora-footprint-bytes-per-rank', kind: 'posNumber', group: LORA, description: 'adapter weights per unit of rank, bytes (load size and HBM slot size); over --lora-config', defaultText: '2000000' },
  { name: 'lora-scorer-weight', kind: 'posNumber', group: LORA, description: 'append lora-affinity at this weight to the weighted routing profile (--routing-policy weighted)' },
  { name: 'num-requests', kind: 'posInt', group: WORKLOAD, description: 'requests to generate', defaultText: '100' },
  { name: 'rate', kind: 'posNumber', group: WORKLOAD, description: 'arrival rate, requests per second', defaultText: '1' },
  { name: 'prompt-tokens', kind: 'posInt', group: WORKLOAD, description: 'mean prompt length', defaultText: '512' },
  { name: 'prompt-tokens-stdev', kind: 'nonNegNumber', group: WORKLOAD, description: 'prompt length standard deviation', defaultText: '256' },
  { name: 'prompt-tokens-min', kind: 'posInt', group: WORKLOAD, description: 'minimum prompt length', defaultText: '2' },
  { name: 'prompt-tokens-max', kind: 'posInt', group: WORKLOAD, description: 'maximum prompt length', defaultText: '7000' },
  { name: 'output-tokens', kind: 'posInt', group: WORKLOAD, description: 'mean output length', defaultText: '512' },
  { name: 'output-tokens-stdev', kind: 'nonNegNumber', group: WORKLOAD, description: 'output length standard deviation', defaultText: '256' },
  { name: 'output-tokens-min', kind: 'posInt', group: WORKLOAD, description: 'minimum output length', defaultText: '2' },
  { name: 'output-tokens-max', kind: 'posInt', group: WORKLOAD, description: 'maximum output length', defaultText: '7000' },
  { name: 'prefix-tokens', kind: 'nonNegInt', group: WORKLOAD, description: 'shared system-prompt tokens on every request', defaultText: '0' },
  { name: 'workload', kind: 'string', group: WORKLOAD, description: 'length preset: chatbot, contentgen, summarization, multidoc (the catalogue\'s), or one of --defaults-filepath\'s; distribution: the length flags alone', defaultText: 'distribution' },
  { name: 'arrival-process', kind: 'string', choices: ['poisson', 'constant'], group: WORKLOAD, description: 'inter-arrival process: constant (every 1/rate s, as BLIS) or poisson', defaultText: 'constant' },
  { name: 'workload-spec', kind: 'string', group: WORKLOAD, description: 'WorkloadSpec v2 YAML file' },
  { name: 'seed', kind: 'int', group: WORKLOAD, description: 'master random seed; when given, also overrides a --workload-spec seed', defaultText: '42' },
  { name: 'timeout', kind: 'int', group: WORKLOAD, description: 'per-request deadline in seconds after arrival; negative = none, 0 is refused; applies to a --workload-spec only when given', defaultText: '300' },
  { name: 'horizon', kind: 'posNumber', group: WORKLOAD, description: 'stop the simulation at this tick (µs)', max: { value: HORIZON_MAX_US, why: "µs, the simulated clock's range of about 285 years" } },
  { name: 'num-instances', kind: 'posInt', group: CLUSTER, description: 'instances behind the router', defaultText: '1' },
  { name: 'policy-config', kind: 'string', group: CLUSTER, description: 'BLIS policy YAML (admission, routing, priority, scheduler, autoscaler, node pools, instance lifecycle); flags override it' },
  { name: 'admission-policy', kind: 'string', group: CLUSTER, description: 'always-admit, token-bucket, reject-all, tenant-quota, slo-shed, tier-shed, gaie-legacy, ./module.mjs or ./tree.yaml (a decision tree)', defaultText: 'always-admit' },
  { name: 'token-bucket-capacity', kind: 'posNumber', group: CLUSTER, description: 'token-bucket size in input tokens', defaultText: '10000' },
  { name: 'token-bucket-refill-rate', kind: 'nonNegNumber', group: CLUSTER, description: 'token-bucket refill, tokens per second', defaultText: '1000' },
  { name: 'priority-policy', kind: 'string', group: CLUSTER, description: 'constant, slo-based, inverted-slo, slo-class, ./module.mjs or ./tree.yaml (a decision tree)', defaultText: 'constant' },
  { name: 'routing-policy', kind: 'string', group: CLUSTER, description: 'round-robin, least-loaded, weighted, ..., ./module.mjs or ./tree.yaml (a decision tree)', defaultText: 'round-robin' },
  { name: 'routing-scorers', kind: 'string', group: CLUSTER, description: 'weighted scorers "name:weight,...", a name may be a scorer module ./scorer.mjs', defaultText: 'precise-prefix-cache:2,queue-depth:1,kv-utilization:1' },
  { name: 'policy-param', kind: 'strings', group: CLUSTER, description: 'a policy parameter, repeatable: <kind>.<key>=<value> (kind: admission, priority, routing, scheduler, decider, autoscaler; scorer.<name>.<key>), value a decimal number, true/false, a string, or a YAML flow [list] or {map}; over --policy-config params' },
  { name: 'scheduler', kind: 'string', group: CLUSTER, description: 'fcfs, priority-fcfs, sjf, reverse-priority, or ./module.mjs', defaultText: 'fcfs' },
  { name: 'preemption-policy', kind: 'string', choices: ['fcfs', 'priority'], group: CLUSTER, description: 'preemption victim: newest (fcfs) or least urgent', defaultText: 'fcfs' },
  { name: 'check-policies', kind: 'bool', group: CLUSTER, description: 'check every policy, built-in ones too: read-only views of what it is handed (the first write stops the run) and answers within its contract (slower)' },
  { name: 'policy-budget-ms', kind: 'posNumber', group: CLUSTER, description: 'wall-clock budget of one decision of a custom policy module, in ms; a slower decision stops the run', defaultText: '1000' },
  { name: 'admission-latency', kind: 'nonNegInt', group: CLUSTER, description: 'µs from arrival to admission decision', defaultText: '0' },
  { name: 'routing-latency', kind: 'nonNegInt', group: CLUSTER, description: 'µs from routing decision to the instance', defaultText: '0' },
  { name: 'snapshot-refresh-interval', kind: 'nonNegInt', group: CLUSTER, description: 'µs between instance load-signal refreshes: queue depth, batch size, KV use (0 = live)', defaultText: '50000' },
  { name: 'cache-signal-delay', kind: 'nonNegInt', group: CLUSTER, description: 'µs the router\'s view of instances\' prefix caches lags them; read by precise-prefix-cache, no-hit-lru, prefix-aware, prefix-overlap (0 = live)', defaultText: '50000' },
  { name: 'architecture', kind: 'string', choices: ['monolithic', 'pd'], group: PD, description: 'pd: prefill and decode pools, sized by --prefill-replicas and --decode-replicas (or --prefill-decode-instances); --num-instances defaults to their sum', defaultText: 'monolithic' },
  { name: 'prefill-instances', aliases: ['prefill-replicas'], kind: 'nonNegInt', group: PD, description: 'prefill-only instances: [0, P); alias --prefill-replicas', defaultText: '0' },
  { name: 'decode-instances', aliases: ['decode-replicas'], kind: 'nonNegInt', group: PD, description: 'decode-only instances: [P, P+D); alias --decode-replicas', defaultText: '0' },
  { name: 'prefill-decode-instances', kind: 'nonNegInt', group: PD, description: 'shared instances in both pools: [P+D, P+D+S)', defaultText: '0' },
  { name: 'encode-instances', kind: 'nonNegInt', group: PD, description: 'E/P/D: encode-only instances [P+D+S, P+D+S+E), chosen for multimodal inputs by the main routing policy (0 = no encode stage); needs P/D instances', defaultText: '0' },
  { name: 'encode-decider', kind: 'string', choices: ['never', 'always', 'multimodal'], group: PD, description: 'E/P/D: which requests get an encode instance: never, always, or multimodal (those with image, audio or video tokens); needs --encode-instances > 0', defaultText: 'never' },
  { name: 'pd-decider', kind: 'string', group: PD, description: 'which requests are split into prefill and decode: never, always, prefix-threshold, or ./module.mjs', defaultText: 'never' },
  { name: 'pd-prefix-threshold', kind: 'nonNegInt', group: PD, description: 'prefix-threshold: split a request when more than this many prompt tokens are not cached on its decode instance', defaultText: '16' },
  { name: 'pd-transfer-bandwidth', kind: 'gbps', group: PD, description: 'KV transfer bandwidth in GB/s (10^9 bytes/s); "10GB/s" also accepted', defaultText: '25' },
  { name: 'pd-transfer-base-latency', aliases: ['pd-transfer-latency'], kind: 'ms', group: PD, description: 'fixed cost of one KV transfer in ms; "1ms" or "500us" also accepted; alias --pd-transfer-latency', defaultText: '0.05' },
  { name: 'pd-transfer-contention', kind: 'bool', group: PD, description: 'a transfer gets the bandwidth divided by the transfers active when it starts' },
  { name: 'prefill-routing-scorers', kind: 'string', group: PD, description: 'weighted scorers "name:weight,..." routing to the prefill pool; unset: the main routing policy' },
  { name: 'decode-routing-scorers', kind: 'string', group: PD, description: 'weighted scorers "name:weight,..." routing to the decode pool; unset: the main routing policy' },
  { name: 'prefill-tp', kind: 'nonNegInt', group: PD, description: 'tensor parallelism of prefill instances (0 = --tp)', defaultText: '0' },
  { name: 'decode-tp', kind: 'nonNegInt', group: PD, description: 'tensor parallelism of decode and shared instances (0 = --tp)', defaultText: '0' },
  { name: 'prefill-hardware', kind: 'string', group: PD, description: 'GPU of prefill instances; unset: --hardware' },
  { name: 'decode-hardware', kind: 'string', group: PD, description: 'GPU of decode and shared instances; unset: --hardware' },
  { name: 'prefill-latency-model', kind: 'string', choices: LATENCY_MODELS, group: PD, description: 'latency model of prefill instances; unset: --latency-model' },
  { name: 'decode-latency-model', kind: 'string', choices: LATENCY_MODELS, group: PD, description: 'latency model of decode and shared instances; unset: --latency-model' },
  { name: 'prefill-max-model-len', kind: 'nonNegInt', group: PD, description: 'context window of prefill instances (0 = --max-model-len)', defaultText: '0' },
  { name: 'decode-max-model-len', kind: 'nonNegInt', group: PD, description: 'context window of decode and shared instances (0 = --max-model-len)', defaultText: '0' },
  ...FLOW_CONTROL_FLAGS,
  ...AUTOSCALE_FLAGS,
  { name: 'results-path', kind: 'string', group: OUTPUT, description: 'also write the result JSON here, with per-request records' },
  { name: 'report', kind: 'string', group: OUTPUT, description: 'also write an HTML report of this run here (see docs/report.md); records per-request results for it' },
  { name: 'timeseries-interval', kind: 'ms', group: OUTPUT, description: 'sample queue depth, batch, KV utilization and hit rate per instance every this many ms of simulated time into `timeseries`; "1s" also accepted' },
  { name: 'fitness-weights', kind: 'string', group: OUTPUT, description: 'weighted fitness "throughput:0.5,p99_ttft:0.3,..."' },
  { name: 'slo-ttft', kind: 'string', group: OUTPUT, description: 'per-class TTFT goodput thresholds "critical=100ms,standard=500ms" (over the workload\'s goodput_slo_targets); a bare integer: one TTFT target in µs for slo_attainment' },
  { name: 'slo-itl', kind: 'string', group: OUTPUT, description: 'per-class mean-ITL goodput thresholds "critical=50ms,standard=150ms" (over the workload\'s goodput_slo_targets)' },
  { name: 'slo-e2e', kind: 'string', group: OUTPUT, description: 'per-class E2E goodput thresholds "critical=5s,standard=30s" (over the workload\'s goodput_slo_targets); a bare integer: one E2E target in µs for slo_attainment' },
  { name: 'check-invariants', kind: 'bool', group: OUTPUT, description: 'check INV-1..5 and INV-8 on every event (slower)' },
  { name: 'trace-level', kind: 'string', choices: ['none', 'decisions', 'full'], group: OUTPUT, description: 'decision trace detail', defaultText: 'none' },
  { name: 'decision-trace', kind: 'string', group: OUTPUT, description: 'stream the decision trace as JSON Lines to this file (needs --trace-level decisions or full)' },
  { name: 'trace-output', kind: 'string', group: OUTPUT, description: "BLIS's workload export: write the run's requests as a TraceV2 pair <prefix>.yaml + <prefix>.csv" },
  { name: 'metrics-path', kind: 'string', group: OUTPUT, description: "write BLIS's aggregate MetricsOutput JSON with per-request records here (what blis calibrate --sim-metrics reads)" },
  { name: 'counterfactual-k', kind: 'nonNegInt', group: OUTPUT, description: 'record the top K routing candidates and regret', defaultText: '0' },
  { name: 'summarize-trace', kind: 'bool', group: OUTPUT, description: 'add a text summary for LLM reflection (trace_summary)' },
  { name: 'summary-max-tokens', kind: 'posInt', group: OUTPUT, description: 'summary length budget in approximate tokens (chars / 4, min 100)', defaultText: '1000' },
  { name: 'tail-ratio-threshold', kind: 'posNumber', group: OUTPUT, description: 'p99/p50 TTFT ratio (> 1) that counts as a tail-latency blowup', defaultText: '5' },
  { name: 'summary-strategy', kind: 'string', choices: ['issue-focused', 'decision-audit', 'counterfactual'], group: OUTPUT, description: 'what the summary dwells on', defaultText: 'issue-focused' },
  { name: 'quiet', kind: 'bool', group: OUTPUT, description: 'no progress bar or log lines on stderr' },
  {
    name: 'log',
    kind: 'string',
    choices: LOG_LEVELS,
    group: OUTPUT,
    defaultText: 'warn',
    description: "BLIS's log level for stderr: info (debug, trace) also lists the run's policies; warn: progress and the summary; error (fatal, panic): errors only, as --quiet",
  },
  { name: 'ignore-memory-limit', kind: 'bool', group: CLUSTER, description: 'run even when the memory estimate exceeds this machine\'s memory (see docs/limits.md)' },
];

/** Flags only `blis replay` has. */
export const REPLAY_FLAGS: readonly FlagDef[] = [
  { name: 'trace', kind: 'string', group: WORKLOAD, description: 'trace file to replay (TraceV2 header .yaml or .csv, Mooncake .jsonl, Azure .csv)' },
  { name: 'trace-header', kind: 'string', group: WORKLOAD, description: 'TraceV2 header YAML (BLIS\'s flag; with --trace-data, instead of --trace)' },
  { name: 'trace-data', kind: 'string', group: WORKLOAD, description: 'TraceV2 data CSV (BLIS\'s flag; with --trace-header, instead of --trace)' },
  { name: 'trace-format', kind: 'string', choices: ['tracev2', 'mooncake', 'azure'], group: WORKLOAD, description: 'trace format (detected when omitted)' },
  { name: 'time-scale', kind: 'posNumber', group: WORKLOAD, description: 'multiply arrival times (0.5 = twice as fast)', defaultText: '1' },
  { name: 'max-requests', kind: 'posInt', group: WORKLOAD, description: 'replay only the first N requests' },
];

/** `blis run` flags that generate a workload, which `blis replay` takes from its trace instead. */
export const GENERATION_FLAGS: readonly string[] = [
  'num-requests',
  'timeout',
  'rate',
  'prompt-tokens',
  'prompt-tokens-stdev',
  'prompt-tokens-min',
  'prompt-tokens-max',
  'output-tokens',
  'output-tokens-stdev',
  'output-tokens-min',
  'output-tokens-max',
  'prefix-tokens',
  'workload',
  'arrival-process',
  'workload-spec',
  'concurrency',
];
