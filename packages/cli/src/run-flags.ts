import type { FlagDef } from './flags.js';

const MODEL = 'Model and latency';
const ENGINE = 'KV cache and batching';
const WORKLOAD = 'Workload';
const CLUSTER = 'Cluster and policies';
const OUTPUT = 'Output and analysis';

/** Every flag `blis run` and `blis replay` share, with BLIS's names and defaults. */
export const SIMULATION_FLAGS: readonly FlagDef[] = [
  { name: 'model', kind: 'string', group: MODEL, description: 'model id from the catalogue (picks its default GPU, TP and latency model)', defaultText: 'meta-llama/llama-3.1-8b-instruct' },
  { name: 'hardware', aliases: ['gpu'], kind: 'string', group: MODEL, description: 'GPU (H100, A100-80, A100-SXM, L40S); default: the model\'s' },
  { name: 'tp', kind: 'posInt', group: MODEL, description: 'tensor parallelism; default: the model\'s' },
  { name: 'latency-model', kind: 'string', choices: ['blackbox', 'roofline'], group: MODEL, description: 'force a latency model (default: blackbox when coefficients exist, else roofline)' },
  { name: 'alpha-coeffs', kind: 'triple', group: MODEL, description: 'alpha0,alpha1,alpha2 in µs (queueing base, per input token, per output token)' },
  { name: 'beta-coeffs', kind: 'triple', group: MODEL, description: 'beta0,beta1,beta2 in µs (step base, per cache-miss token, per decode token)' },
  { name: 'vllm-version', kind: 'string', group: MODEL, description: 'pick the coefficients trained for this vLLM image' },
  { name: 'model-config', aliases: ['model-config-folder'], kind: 'string', group: MODEL, description: 'HF config.json (or its folder) for roofline' },
  { name: 'hardware-config', kind: 'string', group: MODEL, description: 'hardware_config.json with extra GPUs' },
  { name: 'total-kv-blocks', kind: 'posInt', group: ENGINE, description: 'KV blocks per instance (default: derived from GPU memory)' },
  { name: 'gpu-memory-utilization', kind: 'fraction', group: ENGINE, description: 'share of GPU memory for weights + KV', defaultText: '0.9' },
  { name: 'block-size-in-tokens', aliases: ['block-size'], kind: 'posInt', group: ENGINE, description: 'tokens per KV block', defaultText: '16' },
  { name: 'max-num-seqs', aliases: ['max-num-running-reqs'], kind: 'posInt', group: ENGINE, description: 'max running requests per instance', defaultText: '256' },
  { name: 'max-num-batched-tokens', aliases: ['max-num-scheduled-tokens'], kind: 'posInt', group: ENGINE, description: 'token budget per step', defaultText: '2048' },
  { name: 'long-prefill-token-threshold', kind: 'nonNegInt', group: ENGINE, description: 'per-request prefill chunk cap (0 = off)', defaultText: '0' },
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
  { name: 'workload', kind: 'string', choices: ['chatbot', 'contentgen', 'summarization', 'multidoc'], group: WORKLOAD, description: 'length preset from the catalogue' },
  { name: 'arrival-process', kind: 'string', choices: ['poisson', 'constant'], group: WORKLOAD, description: 'inter-arrival process', defaultText: 'poisson' },
  { name: 'workload-spec', kind: 'string', group: WORKLOAD, description: 'WorkloadSpec v2 YAML file' },
  { name: 'seed', kind: 'int', group: WORKLOAD, description: 'master random seed', defaultText: '42' },
  { name: 'horizon', kind: 'posNumber', group: WORKLOAD, description: 'stop the simulation at this tick (µs)' },
  { name: 'num-instances', kind: 'posInt', group: CLUSTER, description: 'instances behind the router', defaultText: '1' },
  { name: 'policy-config', kind: 'string', group: CLUSTER, description: 'BLIS policy YAML (admission, routing, priority, scheduler); flags override it' },
  { name: 'admission-policy', kind: 'string', group: CLUSTER, description: 'always-admit, token-bucket, reject-all, tenant-quota, slo-shed, or ./module.mjs', defaultText: 'always-admit' },
  { name: 'token-bucket-capacity', kind: 'posNumber', group: CLUSTER, description: 'token-bucket size in input tokens' },
  { name: 'token-bucket-refill-rate', kind: 'nonNegNumber', group: CLUSTER, description: 'token-bucket refill, tokens per second' },
  { name: 'priority-policy', kind: 'string', group: CLUSTER, description: 'constant, slo-based, inverted-slo, slo-class, or ./module.mjs', defaultText: 'constant' },
  { name: 'routing-policy', kind: 'string', group: CLUSTER, description: 'round-robin, least-loaded, weighted, ... or ./module.mjs', defaultText: 'round-robin' },
  { name: 'routing-scorers', kind: 'string', group: CLUSTER, description: 'weighted scorers "name:weight,..."', defaultText: 'prefix-affinity:3,queue-depth:2,kv-utilization:2' },
  { name: 'scheduler', kind: 'string', group: CLUSTER, description: 'fcfs, priority-fcfs, sjf, reverse-priority, or ./module.mjs', defaultText: 'fcfs' },
  { name: 'preemption-policy', kind: 'string', choices: ['fcfs', 'priority'], group: CLUSTER, description: 'preemption victim: newest (fcfs) or least urgent', defaultText: 'fcfs' },
  { name: 'admission-latency', kind: 'nonNegInt', group: CLUSTER, description: 'µs from arrival to admission decision', defaultText: '0' },
  { name: 'routing-latency', kind: 'nonNegInt', group: CLUSTER, description: 'µs from routing decision to the instance', defaultText: '0' },
  { name: 'snapshot-refresh-interval', kind: 'nonNegInt', group: CLUSTER, description: 'µs between instance signal refreshes (0 = live)', defaultText: '0' },
  { name: 'flow-control', kind: 'bool', group: CLUSTER, description: 'hold admitted requests in a gateway queue until the pool has room' },
  { name: 'max-gateway-queue-depth', kind: 'nonNegInt', group: CLUSTER, description: 'shed the least urgent beyond this many waiting (0 = unbounded)', defaultText: '0' },
  { name: 'saturation-queue-threshold', kind: 'posNumber', group: CLUSTER, description: 'queue depth at which an instance counts as saturated', defaultText: '5' },
  { name: 'saturation-kv-threshold', kind: 'posNumber', group: CLUSTER, description: 'KV utilisation at which an instance counts as saturated', defaultText: '0.8' },
  { name: 'results-path', kind: 'string', group: OUTPUT, description: 'also write the result JSON here, with per-request records' },
  { name: 'fitness-weights', kind: 'string', group: OUTPUT, description: 'weighted fitness "throughput:0.5,p99_ttft:0.3,..."' },
  { name: 'slo-ttft', kind: 'nonNegInt', group: OUTPUT, description: 'TTFT target in µs for SLO attainment' },
  { name: 'slo-e2e', kind: 'nonNegInt', group: OUTPUT, description: 'E2E target in µs for SLO attainment' },
  { name: 'check-invariants', kind: 'bool', group: OUTPUT, description: 'check INV-1..5 and INV-8 on every event (slower)' },
  { name: 'trace-level', kind: 'string', choices: ['none', 'decisions', 'full'], group: OUTPUT, description: 'decision trace detail', defaultText: 'none' },
  { name: 'trace-output', kind: 'string', group: OUTPUT, description: 'stream the decision trace as JSON Lines to this file' },
  { name: 'counterfactual-k', kind: 'nonNegInt', group: OUTPUT, description: 'record the top K routing candidates and regret', defaultText: '0' },
  { name: 'summarize-trace', kind: 'bool', group: OUTPUT, description: 'add a text summary for LLM reflection (trace_summary)' },
  { name: 'summary-max-tokens', kind: 'posInt', group: OUTPUT, description: 'summary length budget', defaultText: '1000' },
  { name: 'summary-strategy', kind: 'string', choices: ['issue-focused', 'decision-audit', 'counterfactual'], group: OUTPUT, description: 'what the summary dwells on', defaultText: 'issue-focused' },
  { name: 'quiet', kind: 'bool', group: OUTPUT, description: 'no progress bar or log lines on stderr' },
];

/** Flags only `blis replay` has. */
export const REPLAY_FLAGS: readonly FlagDef[] = [
  { name: 'trace', kind: 'string', group: WORKLOAD, description: 'trace file to replay (TraceV2 header .yaml or .csv, Mooncake .jsonl, Azure .csv)' },
  { name: 'trace-format', kind: 'string', choices: ['tracev2', 'mooncake', 'azure'], group: WORKLOAD, description: 'trace format (detected when omitted)' },
  { name: 'time-scale', kind: 'posNumber', group: WORKLOAD, description: 'multiply arrival times (0.5 = twice as fast)', defaultText: '1' },
  { name: 'max-requests', kind: 'posInt', group: WORKLOAD, description: 'replay only the first N requests' },
];
