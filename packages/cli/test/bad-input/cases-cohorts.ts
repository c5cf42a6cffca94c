import type { BadInputCase } from './bad-input-case.js';

// Cohorts (issue #40): each field validated at its line, as BLIS's validateCohort checks it,
// plus what BLIS accepts and then runs as nothing.

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', '$DIR/spec.yaml'];

/** A spec with one cohort (line 5 on) whose fields are `cohort` (indented 4). */
const spec = (cohort: string, head = 'aggregate_rate: 20') =>
  `version: "2"\nseed: 1\n${head}\nnum_requests: 50\ncohorts:\n  - id: web\n    population: 3\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n${cohort}`;

const at = (line: number, field: string, rest: string) => new RegExp(`^blis: \\S+spec\\.yaml:${line} ${field.replace(/[[\].]/g, '\\$&')}: expected ${rest}`);

export const cases: readonly BadInputCase[] = [
  {
    name: 'cohort population 0',
    args: RUN,
    files: { 'spec.yaml': spec('').replace('population: 3', 'population: 0') },
    stderr: [at(7, 'cohorts[0].population', 'a number > 0, found 0')],
  },
  {
    name: 'cohort population over 100,000',
    args: RUN,
    files: { 'spec.yaml': spec('').replace('population: 3', 'population: 100001') },
    stderr: [at(7, 'cohorts[0].population', 'a number <= 100000, found 100001')],
  },
  {
    name: 'cohort members past the 10,000 clients of a run',
    args: RUN,
    files: { 'spec.yaml': spec('').replace('population: 3', 'population: 10001') },
    stderr: [at(7, 'cohorts[0].population', 'at most 10000 clients in all, cohort members included, found 10001 \\(10001 clients up to this cohort\\)')],
  },
  {
    name: 'cohort rate_fraction 0',
    args: RUN,
    files: { 'spec.yaml': spec('').replace('rate_fraction: 1', 'rate_fraction: 0') },
    stderr: [at(8, 'cohorts[0].rate_fraction', 'a number > 0, found 0')],
  },
  {
    name: 'diurnal peak_hour 24',
    args: RUN,
    files: { 'spec.yaml': spec('    diurnal: {peak_hour: 24, peak_to_trough_ratio: 3}\n') },
    stderr: [at(11, 'cohorts[0].diurnal.peak_hour', 'a number <= 23, found 24')],
  },
  {
    name: 'diurnal peak_to_trough_ratio below 1',
    args: RUN,
    files: { 'spec.yaml': spec('    diurnal:\n      peak_hour: 3\n      peak_to_trough_ratio: 0.5\n') },
    stderr: [at(13, 'cohorts[0].diurnal.peak_to_trough_ratio', 'a number >= 1, found 0.5')],
  },
  {
    name: 'spike duration_us 0',
    args: RUN,
    files: { 'spec.yaml': spec('    spike:\n      start_time_us: 0\n      duration_us: 0\n') },
    stderr: [at(13, 'cohorts[0].spike.duration_us', 'a number > 0, found 0')],
  },
  {
    name: 'drain with a negative start',
    args: RUN,
    files: { 'spec.yaml': spec('    drain:\n      start_time_us: -5\n      ramp_duration_us: 100\n') },
    stderr: [at(12, 'cohorts[0].drain.start_time_us', 'a number >= 0, found -5')],
  },
  {
    name: 'prefix_sharing not shared or per_member',
    args: RUN,
    files: { 'spec.yaml': spec('    prefix_sharing: each\n') },
    stderr: [at(11, 'cohorts[0].prefix_sharing', 'one of "shared", "per_member", found "each"')],
  },
  {
    name: 'a cohort may not set lifecycle (its patterns make it)',
    args: RUN,
    files: { 'spec.yaml': spec('    lifecycle: {windows: [{start_us: 0, end_us: 10}]}\n') },
    stderr: [at(11, 'cohorts[0].lifecycle', 'a known field, found unknown field "lifecycle"')],
  },
  {
    name: 'absolute rate mode: a diurnal cohort',
    args: RUN,
    files: { 'spec.yaml': spec('    diurnal: {peak_hour: 3, peak_to_trough_ratio: 2}\n    spike: {start_time_us: 0, duration_us: 10, trace_rate: 5}\n', 'aggregate_rate: 0') },
    stderr: [at(11, 'cohorts[0].diurnal', 'no diurnal pattern \\(aggregate_rate is 0: absolute rate mode')],
  },
  {
    name: 'absolute rate mode: a spike without trace_rate',
    args: RUN,
    files: { 'spec.yaml': spec('    spike: {start_time_us: 0, duration_us: 10}\n', 'aggregate_rate: 0') },
    stderr: [at(11, 'cohorts[0].spike.trace_rate', 'a trace_rate > 0 in requests/s')],
  },
  {
    name: 'a cohort member id taken by a client',
    args: RUN,
    files: {
      'spec.yaml': `${spec('')}clients:\n  - id: web-1\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n`,
    },
    stderr: [at(6, 'cohorts[0].id', 'a unique client id \\(a cohort member is <cohort id>-<n>\\), found "web-1" twice')],
  },
  {
    name: 'neither clients nor cohorts',
    args: RUN,
    files: { 'spec.yaml': 'version: "2"\naggregate_rate: 20\nnum_requests: 50\n' },
    stderr: [/^blis: \S+spec\.yaml:1 clients: expected a list with >= 1 item \(or cohorts, or servegen_data\), found nothing \(the field is missing\)$/],
  },
];
