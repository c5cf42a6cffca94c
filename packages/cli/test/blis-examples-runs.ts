// Every command BLIS's documentation runs on a file of its examples/ folder (the files' own
// "TRY IT" comments, README.md, docs/guide/*.md, examples/routing-comparison.sh), with the
// files named through `E/` (the folder holding them: BLIS's examples/, or ours,
// examples/workloads). blis-examples.test.ts runs each with our CLI; the references in
// fixtures/blis-head-examples/ are BLIS f90a1e3a's runs of the same lines (see its README).

export interface ExampleRun {
  /** The reference file's name (fixtures/blis-head-examples/<name>.json). */
  name: string;
  /** The BLIS example files the run reads. */
  files: string[];
  /** Where BLIS's documentation gives the command. */
  source: string;
  args: string[];
}

const LLAMA = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const QWEN = ['--model', 'qwen/qwen3-14b'];
const TRACED = ['--trace-level', 'decisions', '--summarize-trace'];
const W4 = ['--num-instances', '4', '--routing-policy', 'weighted'];

/** examples/routing-comparison.sh: 1,000 requests at 5,000 req/s on 4 instances, five routings. */
const ROUTING_COMPARISON = ['--model', 'meta-llama/llama-3.1-8b-instruct', '--num-instances', '4', '--num-requests', '1000', '--rate', '5000', ...TRACED, '--log', 'error'];

export const EXAMPLE_RUNS: readonly ExampleRun[] = [
  { name: 'servegen-language', files: ['servegen-language.yaml'], source: 'README.md (Usage)', args: ['run', ...QWEN, '--workload-spec', 'E/servegen-language.yaml'] },
  { name: 'multiturn-chat-demo', files: ['multiturn-chat-demo.yaml'], source: 'docs/guide/workloads.md', args: ['run', ...QWEN, '--num-instances', '4', '--workload-spec', 'E/multiturn-chat-demo.yaml'] },
  { name: 'multiturn-chat-demo-weighted', files: ['multiturn-chat-demo.yaml'], source: 'multiturn-chat-demo.yaml', args: ['run', ...LLAMA, ...W4, '--workload-spec', 'E/multiturn-chat-demo.yaml', ...TRACED] },
  { name: 'multiturn-chat-demo-queue-depth', files: ['multiturn-chat-demo.yaml'], source: 'multiturn-chat-demo.yaml', args: ['run', ...LLAMA, ...W4, '--routing-scorers', 'queue-depth:1', '--workload-spec', 'E/multiturn-chat-demo.yaml', ...TRACED] },
  { name: 'prefix-affinity-demo-affinity', files: ['prefix-affinity-demo.yaml'], source: 'prefix-affinity-demo.yaml', args: ['run', ...LLAMA, ...W4, '--routing-scorers', 'prefix-affinity:5,queue-depth:1', '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED] },
  { name: 'prefix-affinity-demo-queue-depth', files: ['prefix-affinity-demo.yaml'], source: 'prefix-affinity-demo.yaml', args: ['run', ...LLAMA, ...W4, '--routing-scorers', 'queue-depth:1', '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED] },
  { name: 'prefix-affinity-demo-weighted', files: ['prefix-affinity-demo.yaml'], source: 'prefix-affinity-demo.yaml', args: ['run', ...LLAMA, ...W4, '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED] },
  { name: 'inference-perf-shared-prefix', files: ['inference-perf-shared-prefix.yaml'], source: 'inference-perf-shared-prefix.yaml', args: ['run', ...LLAMA, ...W4, '--workload-spec', 'E/inference-perf-shared-prefix.yaml'] },
  {
    name: 'epp-estimate-prefix',
    files: ['epp-estimate-prefix.yaml', 'prefix-affinity-demo.yaml'],
    source: 'epp-estimate-prefix.yaml',
    args: ['run', ...LLAMA, '--num-instances', '4', '--policy-config', 'E/epp-estimate-prefix.yaml', '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED],
  },
  {
    name: 'epp-precise-prefix',
    files: ['epp-precise-prefix.yaml', 'prefix-affinity-demo.yaml'],
    source: 'epp-precise-prefix.yaml',
    args: ['run', ...LLAMA, '--num-instances', '4', '--policy-config', 'E/epp-precise-prefix.yaml', '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED],
  },
  {
    name: 'epp-precise-prefix-flags',
    files: ['prefix-affinity-demo.yaml'],
    source: 'epp-precise-prefix.yaml ("Or via CLI")',
    args: ['run', ...LLAMA, '--num-instances', '4', '--routing-policy', 'weighted', '--routing-scorers', 'prefix-affinity:2,kv-utilization:1,queue-depth:1', '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED],
  },
  { name: 'policy-config', files: ['policy-config.yaml'], source: 'policy-config.yaml ("--model <model>")', args: ['run', ...QWEN, '--policy-config', 'E/policy-config.yaml'] },
  { name: 'weighted-routing-default', files: ['servegen-language.yaml'], source: 'weighted-routing.yaml', args: ['run', ...LLAMA, ...W4, '--workload-spec', 'E/servegen-language.yaml', ...TRACED] },
  { name: 'weighted-routing-affinity', files: ['servegen-language.yaml'], source: 'weighted-routing.yaml', args: ['run', ...LLAMA, ...W4, '--routing-scorers', 'prefix-affinity:5,queue-depth:1', '--workload-spec', 'E/servegen-language.yaml', ...TRACED] },
  { name: 'weighted-routing-load-balance', files: ['servegen-language.yaml'], source: 'weighted-routing.yaml', args: ['run', ...LLAMA, ...W4, '--routing-scorers', 'load-balance:1', '--workload-spec', 'E/servegen-language.yaml', ...TRACED] },
  { name: 'weighted-routing-bundle', files: ['weighted-routing.yaml', 'servegen-language.yaml'], source: 'weighted-routing.yaml as a policy bundle', args: ['run', ...LLAMA, '--num-instances', '4', '--policy-config', 'E/weighted-routing.yaml', '--workload-spec', 'E/servegen-language.yaml'] },
  { name: 'pd-disaggregation-demo-colocated', files: [], source: 'pd-disaggregation-demo.yaml', args: ['run', ...QWEN, '--num-instances', '4', '--rate', '100', '--num-requests', '1000'] },
  {
    name: 'pd-disaggregation-demo-pd',
    files: [],
    source: 'pd-disaggregation-demo.yaml',
    args: ['run', ...QWEN, '--num-instances', '4', '--prefill-instances', '2', '--decode-instances', '2', '--pd-decider', 'always', '--pd-transfer-bandwidth', '25', '--pd-transfer-base-latency', '0.05', '--rate', '100', '--num-requests', '1000'],
  },
  {
    name: 'pd-disaggregation-demo-bundle',
    files: ['pd-disaggregation-demo.yaml'],
    source: 'README.md ("See examples/pd-disaggregation-demo.yaml for a full policy configuration")',
    args: ['run', ...QWEN, '--num-instances', '4', '--prefill-instances', '2', '--decode-instances', '2', '--pd-decider', 'always', '--rate', '100', '--num-requests', '1000', '--policy-config', 'E/pd-disaggregation-demo.yaml'],
  },
  {
    name: 'regression-load-spikes-autoscaler',
    files: ['regression_workload_load_spikes.yaml', 'autoscaler-demo.yaml'],
    source: 'README.md (Autoscaling)',
    args: ['run', ...QWEN, '--num-instances', '1', '--policy-config', 'E/autoscaler-demo.yaml', '--workload-spec', 'E/regression_workload_load_spikes.yaml'],
  },
  {
    name: 'regression-load-spikes-autoscaler-interval',
    files: ['regression_workload_load_spikes.yaml', 'autoscaler-demo.yaml'],
    source: 'README.md (Autoscaling)',
    args: ['run', ...QWEN, '--num-instances', '1', '--policy-config', 'E/autoscaler-demo.yaml', '--model-autoscaler-interval-us', '5000000', '--workload-spec', 'E/regression_workload_load_spikes.yaml'],
  },
  { name: 'regression-cache-warmup', files: ['regression_workload_cache_warmup.yaml'], source: 'a workload spec, run as the README runs one', args: ['run', ...QWEN, '--num-instances', '4', '--workload-spec', 'E/regression_workload_cache_warmup.yaml'] },
  { name: 'regression-multiturn', files: ['regression_workload_multiturn.yaml'], source: 'a workload spec, run as the README runs one', args: ['run', ...QWEN, '--num-instances', '4', '--workload-spec', 'E/regression_workload_multiturn.yaml'] },
  { name: 'routing-comparison-round-robin', files: [], source: 'routing-comparison.sh', args: ['run', ...ROUTING_COMPARISON, '--routing-policy', 'round-robin'] },
  { name: 'routing-comparison-least-loaded', files: [], source: 'routing-comparison.sh', args: ['run', ...ROUTING_COMPARISON, '--routing-policy', 'least-loaded'] },
  { name: 'routing-comparison-queue-depth', files: [], source: 'routing-comparison.sh', args: ['run', ...ROUTING_COMPARISON, '--routing-policy', 'weighted', '--routing-scorers', 'queue-depth:1'] },
  { name: 'routing-comparison-kv-utilization', files: [], source: 'routing-comparison.sh', args: ['run', ...ROUTING_COMPARISON, '--routing-policy', 'weighted', '--routing-scorers', 'kv-utilization:1'] },
  { name: 'routing-comparison-weighted', files: [], source: 'routing-comparison.sh', args: ['run', ...ROUTING_COMPARISON, '--routing-policy', 'weighted'] },
  // Part 2 of the script: prefix-affinity-demo.yaml under four routings, three of them the file's own (above).
  {
    name: 'routing-comparison-prefix-round-robin',
    files: ['prefix-affinity-demo.yaml'],
    source: 'routing-comparison.sh (part 2)',
    args: ['run', ...LLAMA, '--num-instances', '4', '--workload-spec', 'E/prefix-affinity-demo.yaml', ...TRACED, '--log', 'error', '--routing-policy', 'round-robin'],
  },
];
