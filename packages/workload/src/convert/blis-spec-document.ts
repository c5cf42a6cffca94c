import { type GoYamlNode, goBool, goFloat, goFloatMap, goInt, goSeq, goStr, goStruct, goYamlDocument } from '../go-yaml/index.js';

// BLIS HEAD's WorkloadSpec structs (sim/workload/spec.go) as its `convert` commands fill them,
// and the YAML its Marshal prints: fields in declaration order, `omitempty` ones left out when
// zero (a pointer only when nil). Only the fields a conversion can set are here.

export interface BlisDist {
  type: string;
  /** Printed sorted by key, as yaml.v3 prints a Go map; left out when empty. */
  params?: Record<string, number>;
}

export interface BlisArrival {
  process: string;
  cv?: number;
  shape?: number;
  scale?: number;
}

export interface BlisWindow {
  start_us: number;
  end_us: number;
  trace_rate?: number;
  arrival?: BlisArrival;
  input_distribution?: BlisDist;
  output_distribution?: BlisDist;
}

export interface BlisReasoning {
  reason_ratio_distribution: BlisDist;
  multi_turn?: { max_rounds: number; think_time_us: number; context_growth: string; single_session: boolean };
}

export interface BlisClient {
  id: string;
  tenant_id: string;
  slo_class: string;
  rate_fraction: number;
  arrival: BlisArrival;
  input_distribution: BlisDist;
  output_distribution: BlisDist;
  prefix_group: string;
  prefix_length: number;
  streaming: boolean;
  lifecycle?: { windows: BlisWindow[] };
  reasoning?: BlisReasoning;
}

export interface BlisCohort {
  id: string;
  population: number;
  slo_class: string;
  arrival: BlisArrival;
  input_distribution: BlisDist;
  output_distribution: BlisDist;
  streaming: boolean;
  rate_fraction: number;
  spike?: { start_time_us: number; duration_us: number; trace_rate?: number };
  reasoning?: BlisReasoning;
  closed_loop?: boolean;
}

export interface BlisWorkloadSpec {
  version: string;
  seed: number;
  category: string;
  clients: BlisClient[];
  cohorts: BlisCohort[];
  aggregate_rate: number;
  num_requests: number;
}

const omitZero = (n: number): GoYamlNode | undefined => (n === 0 ? undefined : goInt(n));
const omitEmpty = (s: string): GoYamlNode | undefined => (s === '' ? undefined : goStr(s));
const maybe = <T>(v: T | undefined, f: (v: T) => GoYamlNode): GoYamlNode | undefined => (v === undefined ? undefined : f(v));

function dist(d: BlisDist): GoYamlNode {
  const params = d.params !== undefined && Object.keys(d.params).length > 0 ? goFloatMap(d.params) : undefined;
  return goStruct([['type', goStr(d.type)], ['params', params]]);
}

function arrival(a: BlisArrival): GoYamlNode {
  return goStruct([['process', goStr(a.process)], ['cv', maybe(a.cv, goFloat)], ['shape', maybe(a.shape, goFloat)], ['scale', maybe(a.scale, goFloat)]]);
}

function window(w: BlisWindow): GoYamlNode {
  return goStruct([
    ['start_us', goInt(w.start_us)],
    ['end_us', goInt(w.end_us)],
    ['trace_rate', maybe(w.trace_rate, goFloat)],
    ['arrival', maybe(w.arrival, arrival)],
    ['input_distribution', maybe(w.input_distribution, dist)],
    ['output_distribution', maybe(w.output_distribution, dist)],
  ]);
}

function reasoning(r: BlisReasoning): GoYamlNode {
  const mt = r.multi_turn;
  return goStruct([
    ['reason_ratio_distribution', dist(r.reason_ratio_distribution)],
    [
      'multi_turn',
      mt === undefined
        ? undefined
        : goStruct([
            ['max_rounds', goInt(mt.max_rounds)],
            ['think_time_us', goInt(mt.think_time_us)],
            ['context_growth', goStr(mt.context_growth)],
            ['single_session', mt.single_session ? goBool(true) : undefined],
          ]),
    ],
  ]);
}

function client(c: BlisClient): GoYamlNode {
  return goStruct([
    ['id', goStr(c.id)],
    ['tenant_id', goStr(c.tenant_id)],
    ['slo_class', goStr(c.slo_class)],
    ['rate_fraction', goFloat(c.rate_fraction)],
    ['arrival', arrival(c.arrival)],
    ['input_distribution', dist(c.input_distribution)],
    ['output_distribution', dist(c.output_distribution)],
    ['prefix_group', omitEmpty(c.prefix_group)],
    ['prefix_length', omitZero(c.prefix_length)],
    ['streaming', goBool(c.streaming)],
    ['lifecycle', maybe(c.lifecycle, (l) => goStruct([['windows', goSeq(l.windows.map(window))]]))],
    ['reasoning', maybe(c.reasoning, reasoning)],
  ]);
}

function cohort(c: BlisCohort): GoYamlNode {
  return goStruct([
    ['id', goStr(c.id)],
    ['population', goInt(c.population)],
    ['slo_class', omitEmpty(c.slo_class)],
    ['arrival', arrival(c.arrival)],
    ['input_distribution', dist(c.input_distribution)],
    ['output_distribution', dist(c.output_distribution)],
    ['streaming', c.streaming ? goBool(true) : undefined],
    ['rate_fraction', goFloat(c.rate_fraction)],
    [
      'spike',
      maybe(c.spike, (s) => goStruct([['start_time_us', goInt(s.start_time_us)], ['duration_us', goInt(s.duration_us)], ['trace_rate', maybe(s.trace_rate, goFloat)]])),
    ],
    ['reasoning', maybe(c.reasoning, reasoning)],
    ['closed_loop', maybe(c.closed_loop, goBool)],
  ]);
}

/** The YAML `blis convert` prints for `spec`, as BLIS HEAD prints it. */
export function blisSpecYaml(spec: BlisWorkloadSpec): string {
  const root = goStruct([
    ['version', goStr(spec.version)],
    ['seed', goInt(spec.seed)],
    ['category', goStr(spec.category)],
    ['clients', goSeq(spec.clients.map(client))],
    ['cohorts', spec.cohorts.length > 0 ? goSeq(spec.cohorts.map(cohort)) : undefined],
    ['aggregate_rate', goFloat(spec.aggregate_rate)],
    ['num_requests', omitZero(spec.num_requests)],
  ]);
  return goYamlDocument(root);
}
