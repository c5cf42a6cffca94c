import type { BadInputCase } from './bad-input-case.js';

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];
const FC = [...RUN, '--flow-control'];

/** Gateway flow control's flags: each bad value names the flag, what it takes and what it got. */
export const cases: readonly BadInputCase[] = [
  { name: '--saturation-detector unknown', args: [...FC, '--saturation-detector', 'busy'], stderr: ['--saturation-detector: expected one of utilization, concurrency, never, found "busy"'], exactLines: true },
  { name: '--dispatch-order unknown', args: [...FC, '--dispatch-order', 'lifo'], stderr: ['--dispatch-order: expected one of fifo, priority, slo-deadline, found "lifo"'], exactLines: true },
  { name: '--fairness-policy unknown', args: [...FC, '--fairness-policy', 'wfq'], stderr: ['--fairness-policy: expected one of global-strict, round-robin, found "wfq"'], exactLines: true },
  { name: '--usage-limit-threshold 0', args: [...FC, '--usage-limit-threshold', '0'], stderr: ['--usage-limit-threshold: expected a number in (0, 1], found "0"'], exactLines: true },
  { name: '--usage-limit-threshold above 1', args: [...FC, '--usage-limit-threshold', '1.5'], stderr: ['--usage-limit-threshold: expected a number in (0, 1], found "1.5"'], exactLines: true },
  { name: '--per-band-capacity negative', args: [...FC, '--per-band-capacity', '-1'], stderr: ['--per-band-capacity: expected a non-negative integer, found "-1"'], exactLines: true },
  { name: '--request-ttl with a fraction', args: [...FC, '--request-ttl', '1.5'], stderr: ['--request-ttl: expected a non-negative integer, found "1.5"'], exactLines: true },
  { name: '--dispatch-tick-interval negative', args: [...FC, '--dispatch-tick-interval', '-5'], stderr: ['--dispatch-tick-interval: expected a non-negative integer, found "-5"'], exactLines: true },
  { name: '--queue-depth-threshold 0', args: [...FC, '--queue-depth-threshold', '0'], stderr: ['--queue-depth-threshold: expected a positive number, found "0"'], exactLines: true },
  { name: '--kv-cache-util-threshold not a number', args: [...FC, '--kv-cache-util-threshold', 'abc'], stderr: ['--kv-cache-util-threshold: expected a positive number, found "abc"'], exactLines: true },
  { name: '--max-concurrency 0', args: [...FC, '--max-concurrency', '0'], stderr: ['--max-concurrency: expected a positive integer, found "0"'], exactLines: true },
  { name: '--max-gateway-queue-depth not a number', args: [...FC, '--max-gateway-queue-depth', 'x'], stderr: ['--max-gateway-queue-depth: expected a non-negative integer, found "x"'], exactLines: true },
  { name: '--slo-targets without a value', args: [...FC, '--dispatch-order', 'slo-deadline', '--slo-targets', 'critical'], stderr: ['--slo-targets: expected comma-separated class=µs pairs (e.g. "critical=100000,standard=500000"), found "critical"'], exactLines: true },
  { name: '--slo-targets with a negative target', args: [...FC, '--dispatch-order', 'slo-deadline', '--slo-targets', 'critical=-5'], stderr: ['--slo-targets: expected a positive integer number of µs for critical, found "-5"'], exactLines: true },
  { name: '--slo-targets without a class', args: [...FC, '--dispatch-order', 'slo-deadline', '--slo-targets', '=5'], stderr: ['--slo-targets: expected comma-separated class=µs pairs (e.g. "critical=100000,standard=500000"), found "=5"'], exactLines: true },
  { name: '--slo-targets with another dispatch order', args: [...FC, '--slo-targets', 'critical=5'], stderr: ['--slo-targets: expected --dispatch-order slo-deadline with it (only that order reads targets), found "critical=5"'], exactLines: true },
  { name: '--request-ttl without --flow-control', args: [...RUN, '--request-ttl', '5'], stderr: ['--request-ttl: expected --flow-control with it (without it there is no gateway queue), found "5"'], exactLines: true },
  { name: '--queue-shedding without --flow-control', args: [...RUN, '--queue-shedding'], stderr: ['--queue-shedding: expected --flow-control with it (without it there is no gateway queue), found the switch on its own'], exactLines: true },
];
