import type { BadInputCase } from './bad-input-case.js';
import { oneClientSpec } from './one-client-spec.js';

// Times past the simulated clock's range (whole µs up to 2^53 - 1, about 285 years): before, a
// rate of 1e-300 or a trace scaled by 1e300 ran, and every request timed out at 1e300 s; a
// value past the largest double (1e400) was refused without saying why or what the limit is.

const RUN = ['run', '--latency-model', 'blackbox'];
const CLOCK = "9007199254740991 µs, the simulated clock's range of about 285 years";
const TRACE = '{"timestamp": 0, "input_length": 10, "output_length": 5}\n{"timestamp": 1500, "input_length": 10, "output_length": 5}\n';
const SPEC = oneClientSpec('aggregate_rate: 1e-300\nnum_requests: 5\n');

export const cases: readonly BadInputCase[] = [
  {
    name: '--rate so low its arrivals pass the clock',
    args: [...RUN, '--rate', '1e-300'],
    stderr: [`--rate: expected at least 1.12e-8 requests per second (100 requests arriving within ${CLOCK}), found 1e-300`],
    exactLines: true,
  },
  {
    name: 'a spec\'s aggregate_rate so low its arrivals pass the clock',
    args: [...RUN, '--workload-spec', '$DIR/spec.yaml'],
    files: { 'spec.yaml': SPEC },
    stderr: [/^blis: \S+spec\.yaml:3 aggregate_rate: expected at least 5\.56e-10 requests per second \(5 requests arriving within 9007199254740991 µs, the simulated clock's range of about 285 years\), found 1e-300$/],
    exactLines: true,
  },
  {
    name: 'replay --time-scale that scales arrivals past the clock',
    args: ['replay', '--latency-model', 'blackbox', '--trace', '$DIR/t.jsonl', '--time-scale', '1e300'],
    files: { 't.jsonl': TRACE },
    stderr: [/^blis: \S+t\.jsonl:2 timestamp: expected an arrival time of at most 9007199254740991 µs, the simulated clock's range of about 285 years, once multiplied by the time scale 1e\+300, found 1500000 µs, 1\.5e\+306 µs once scaled$/],
    exactLines: true,
  },
  {
    name: '--horizon past the clock',
    args: [...RUN, '--horizon', '1e17'],
    stderr: [`--horizon: expected a positive number up to 9007199254740991 (µs, the simulated clock's range of about 285 years), found "1e17"`],
    exactLines: true,
  },
  {
    name: '--horizon 1e400 (not finite)',
    args: [...RUN, '--horizon', '1e400'],
    stderr: [`--horizon: expected a positive number up to 9007199254740991 (µs, the simulated clock's range of about 285 years), found "1e400" (not finite)`],
    exactLines: true,
  },
  {
    name: '--rate 1e400 (not finite)',
    args: [...RUN, '--rate', '1e400'],
    stderr: ['--rate: expected a positive number up to 1.7976931348623157e+308 (the largest finite number), found "1e400" (not finite)'],
    exactLines: true,
  },
  {
    name: 'replay --time-scale 1e400 (not finite)',
    args: ['replay', '--latency-model', 'blackbox', '--trace', '$DIR/t.jsonl', '--time-scale', '1e400'],
    files: { 't.jsonl': TRACE },
    stderr: ['--time-scale: expected a positive number up to 1.7976931348623157e+308 (the largest finite number), found "1e400" (not finite)'],
    exactLines: true,
  },
];
