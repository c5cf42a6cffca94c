import type { BadInputCase } from './bad-input-case.js';

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];

/** Command-line flags: values of the wrong kind, unknown flags and options. */
export const cases: readonly BadInputCase[] = [
  { name: 'unknown flag', args: [...RUN, '--log-level', 'info'], stderr: ['--log-level: expected an option of `blis run` (see `blis run --help`), found an unknown option'], exactLines: true },
  { name: '--fitness-weights with no entry', args: [...RUN, '--fitness-weights', ','], stderr: [/^blis: --fitness-weights: expected /], exactLines: true },
  { name: '--rate not a number', args: [...RUN, '--rate', 'fast'], stderr: [/^blis: --rate: expected a positive number, found "fast"$/], exactLines: true },
  // Numbers are plain decimal: JavaScript's other number forms were read silently.
  { name: '--rate in hex', args: [...RUN, '--rate', '0x10'], stderr: ['--rate: expected a positive number (in decimal, e.g. 2.5 or 1e3), found "0x10"'], exactLines: true },
  { name: '--num-instances in binary', args: [...RUN, '--num-instances', '0b1'], stderr: ['--num-instances: expected a positive integer (in decimal, e.g. 16 or 1e3), found "0b1"'], exactLines: true },
  { name: '--max-num-seqs in octal', args: [...RUN, '--max-num-seqs', '0o7'], stderr: [/^blis: --max-num-seqs: expected a positive integer \(in decimal.*found "0o7"$/], exactLines: true },
  { name: '--rate Infinity', args: [...RUN, '--rate', 'Infinity'], stderr: [/^blis: --rate: expected a positive number \(in decimal.*found "Infinity"$/], exactLines: true },
  { name: '--rate NaN', args: [...RUN, '--rate', 'NaN'], stderr: [/^blis: --rate: expected a positive number \(in decimal.*found "NaN"$/], exactLines: true },
  { name: '--rate overflowing to infinity', args: [...RUN, '--rate', '1e999'], stderr: ['--rate: expected a positive number up to 1.7976931348623157e+308 (the largest finite number), found "1e999" (not finite)'], exactLines: true },
  { name: '--rate padded with spaces', args: [...RUN, '--rate', ' 5'], stderr: [/^blis: --rate: expected a positive number \(in decimal.*found " 5"$/], exactLines: true },
  { name: '--rate empty', args: [...RUN, '--rate', ''], stderr: ['--rate: expected a positive number, found an empty value'], exactLines: true },
  { name: '--seed with a fraction', args: [...RUN, '--seed', '1.5'], stderr: [/^blis: --seed: expected an integer, found "1.5"$/], exactLines: true },
  { name: '--max-num-seqs beyond 2^53', args: [...RUN, '--max-num-seqs', '9007199254740993'], stderr: ['--max-num-seqs: expected a positive integer up to 9007199254740991, found "9007199254740993"'], exactLines: true },
  { name: '--seed beyond 2^53 as an exponent', args: [...RUN, '--seed', '1e300'], stderr: ['--seed: expected an integer up to 9007199254740991, found "1e300"'], exactLines: true },
  { name: '--beta-coeffs with a hex entry', args: [...RUN, '--latency-model', 'blackbox', '--beta-coeffs', '0x10,1,1'], stderr: [/^blis: --beta-coeffs: expected comma-separated numbers.*found "0x10,1,1"$/], exactLines: true },
  { name: 'a 10 KB flag value is quoted as an excerpt', args: [...RUN, '--rate', 'x'.repeat(10_000)], stderr: [/^blis: --rate: expected a positive number, found "x{60}…" \(10000 characters\)$/], exactLines: true, maxStderrBytes: 400 },
  // List flags: an empty or repeated entry is a typo whose intent is unknown.
  { name: '--fitness-weights with an empty entry', args: [...RUN, '--fitness-weights', 'p99_ttft:1,,mean_e2e:2'], stderr: ['--fitness-weights: expected "metric:weight", found an empty entry (entry 2)'], exactLines: true },
  { name: '--fitness-weights with an unknown and an empty entry', args: [...RUN, '--fitness-weights', 'ttft_p99:1,,p99_ttft:2'], stderr: [/^blis: --fitness-weights: expected metric:weight pairs over throughput, .*found unknown fitness metric "ttft_p99"$/], exactLines: true },
  { name: '--fitness-weights with a metric twice', args: [...RUN, '--fitness-weights', 'p99_ttft:1,p99_ttft:2'], stderr: ['--fitness-weights: expected each fitness metric at most once, found "p99_ttft" again'], exactLines: true },
  { name: '--fitness-weights with a hex weight', args: [...RUN, '--fitness-weights', 'p99_ttft:0x1'], stderr: ['--fitness-weights: expected the weight of p99_ttft to be a non-negative number, found "0x1"'], exactLines: true },
  { name: '--routing-scorers with an empty entry', args: [...RUN, '--routing-scorers', 'queue-depth:1,,kv-utilization:1'], stderr: ['--routing-scorers: expected name:weight entries, found ""'], exactLines: true },
  { name: '--routing-scorers with a scorer twice', args: [...RUN, '--routing-scorers', 'queue-depth:1,queue-depth:2'], stderr: ['--routing-scorers: expected each scorer at most once, found "queue-depth" again'], exactLines: true },
  { name: '--routing-scorers with a hex weight', args: [...RUN, '--routing-scorers', 'queue-depth:0x1'], stderr: ['--routing-scorers: expected the weight of "queue-depth" to be a finite number > 0, found "0x1"'], exactLines: true },
  // The latency catalogue: a version or deployment it has no coefficients for is refused, naming the flag and what exists.
  { name: '--vllm-version unknown', args: [...RUN, '--vllm-version', '9.9'], stderr: ['--vllm-version: expected a vLLM version trained for meta-llama/llama-3.1-8b-instruct on H100 TP1 (0.11.0), found "9.9"'], exactLines: true },
  { name: '--vllm-version beside a model it does not pick for', args: [...RUN, '--latency-model', 'trained-physics', '--vllm-version', '0.11.0'], stderr: ['--vllm-version: expected no --vllm-version with --latency-model trained-physics (a vLLM version picks blackbox coefficients), found "0.11.0"'], exactLines: true },
  { name: '--vllm-version on hardware without coefficients', args: [...RUN, '--vllm-version', '0.8.4', '--hardware', 'L40S'], stderr: [/^blis: --vllm-version: expected a deployment with trained coefficients for meta-llama\/llama-3.1-8b-instruct \(.*\), found "0.8.4" on L40S TP1$/], exactLines: true },
  { name: 'a known model on hardware without coefficients', args: ['run', '--model', 'openai/gpt-oss-120b', '--hardware', 'L40S', '--num-requests', '5'], stderr: ['--hardware: expected a deployment with trained coefficients for openai/gpt-oss-120b (H100 TP1, H100 TP2, H100 TP4, H100 TP8), or --model-config with its Hugging Face config.json for roofline, found "L40S"'], exactLines: true },
  { name: 'a known model at a TP without coefficients', args: ['run', '--model', 'openai/gpt-oss-120b', '--tp', '3', '--num-requests', '5'], stderr: [/^blis: --tp: expected a deployment with trained coefficients for openai\/gpt-oss-120b .*found 3 \(on H100\)$/], exactLines: true },
  // Named by the flag the user typed, not by the config path it fills (`params.scorers`).
  { name: '--token-bucket-refill-rate for another admission policy', args: [...RUN, '--token-bucket-refill-rate', '5'], stderr: ['--token-bucket-refill-rate: expected no --token-bucket-refill-rate for admission policy "always-admit" (it is for --admission-policy token-bucket), found "5"'], exactLines: true },
  { name: '--token-bucket-refill-rate zero', args: [...RUN, '--admission-policy', 'token-bucket', '--token-bucket-refill-rate', '0'], stderr: ['--token-bucket-refill-rate: expected a finite number > 0, found "0"'], exactLines: true },
  { name: '--timeseries-interval beyond 2^53 µs', args: [...RUN, '--timeseries-interval', '1e15'], stderr: ['--timeseries-interval: expected an interval of at most 9007199254740991 µs, found "1000000000000000" ms'], exactLines: true },
  { name: 'a 10 KB --vllm-version is quoted as an excerpt', args: [...RUN, '--vllm-version', 'v'.repeat(10_000)], stderr: [/^blis: --vllm-version: expected .*found "v{60}…" \(10000 characters\)$/], exactLines: true, maxStderrBytes: 400 },
  { name: 'a 10 KB --routing-policy is quoted as an excerpt', args: [...RUN, '--routing-policy', 'w'.repeat(10_000)], stderr: [/^blis: --routing-policy: expected one of .*found "w{60}…" \(10000 characters\)$/], exactLines: true, maxStderrBytes: 400 },
  { name: '--num-instances zero', args: [...RUN, '--num-instances', '0'], stderr: [/^blis: --num-instances: expected a positive integer/], exactLines: true },
  // blis serve-sim: where to listen.
  {
    name: 'serve-sim --port beyond 16 bits',
    args: ['serve-sim', '--model', 'meta-llama/llama-3.1-8b-instruct', '--port', '99999'],
    stderr: ['--port: expected a TCP port from 0 to 65535 (0 = any free port), found 99999'],
    exactLines: true,
  },
  {
    name: 'serve-sim --host that is no address',
    args: ['serve-sim', '--model', 'meta-llama/llama-3.1-8b-instruct', '--host', '999.1.1.1', '--port', '0'],
    stderr: ['--host: expected an address or a host name that resolves on this machine, found "999.1.1.1"'],
    exactLines: true,
  },
  {
    name: '--timeout beyond the simulated clock names the flag, in seconds',
    args: ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--timeout', '1e12'],
    stderr: ["--timeout: expected at most 9007199254 seconds (the simulated clock's range), or a negative number for no deadline, found 1000000000000"],
    exactLines: true,
  },
  {
    // Before, one line per empty entry: the same line twice.
    name: 'compare --policies "," (no name at all) is one message',
    args: ['compare', '--latency-model', 'blackbox', '--policies', ','],
    stderr: ['--policies: expected a comma-separated list of routing policies (built-in names or ./module.mjs paths), found ","'],
    exactLines: true,
  },
  {
    name: 'compare --policies with an empty entry and a name repeated: one message each',
    args: ['compare', '--latency-model', 'blackbox', '--policies', 'round-robin,,round-robin,round-robin'],
    stderr: ['--policies: expected a policy name between every two commas, found "round-robin,,round-robin,round-robin" (an empty entry)', '--policies: expected distinct policy names, found "round-robin" more than once'],
    exactLines: true,
  },
];
