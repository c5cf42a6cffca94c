/**
 * What a policy's answer must look like, kind by kind. Each check returns the problem in words
 * (`returned instance 9; expected 0..3`) or undefined when the answer keeps the contract.
 */

/** A value as a message shows it: numbers as JS prints them (NaN, Infinity), the rest as JSON. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'function') return 'a function';
  try {
    const text = JSON.stringify(v);
    return text === undefined ? String(v) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return typeof v;
  }
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/** Position of the first entry of `values` that is not a finite number, or -1. */
function firstNonFinite(values: ArrayLike<unknown>): number {
  for (let i = 0; i < values.length; i++) if (!isFiniteNumber(values[i])) return i;
  return -1;
}

function positionProblem(field: string, v: unknown, n: number): string | undefined {
  if (Number.isInteger(v) && (v as number) >= 0 && (v as number) < n) return undefined;
  return `returned ${field} ${show(v)}; expected ${n === 0 ? 'no instance (there are none)' : `0..${n - 1}`}`;
}

function finiteArrayProblem(field: string, v: unknown): string | undefined {
  if (!isRecord(v) || typeof v.length !== 'number') return `returned ${field} ${show(v)}; expected an array of finite numbers`;
  const values = v as unknown as ArrayLike<unknown>;
  const i = firstNonFinite(values);
  return i < 0 ? undefined : `returned ${field}[${i}] = ${show(values[i])}; expected finite numbers`;
}

/** RoutingPolicy.route: an instance in range (unless it rejects), finite hint and scores. */
export function routingProblem(d: unknown, instances: number): string | undefined {
  if (!isRecord(d)) return `returned ${show(d)}; expected a decision object { instance, reason }`;
  if (d.reject !== undefined && typeof d.reject !== 'boolean') return `returned reject ${show(d.reject)}; expected true, false or nothing`;
  if (d.reject !== true) {
    const p = positionProblem('instance', d.instance, instances);
    if (p !== undefined) return p;
  }
  if (d.priority !== undefined && !isFiniteNumber(d.priority)) return `returned priority ${show(d.priority)}; expected a finite number or nothing`;
  if (d.scores !== undefined) {
    const p = finiteArrayProblem('scores', d.scores);
    if (p !== undefined) return p;
  }
  if (d.breakdown !== undefined) {
    if (!isRecord(d.breakdown)) return `returned breakdown ${show(d.breakdown)}; expected an object of score arrays`;
    for (const [name, values] of Object.entries(d.breakdown)) {
      const p = finiteArrayProblem(`breakdown[${JSON.stringify(name)}]`, values);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

/** AdmissionPolicy.admit: a boolean verdict. */
export function admissionProblem(d: unknown): string | undefined {
  if (!isRecord(d)) return `returned ${show(d)}; expected a decision object { admit, reason }`;
  return typeof d.admit === 'boolean' ? undefined : `returned admit ${show(d.admit)}; expected true or false`;
}

/** PriorityPolicy.priority and InstanceScheduler.compare: a finite number. */
export function finiteNumberProblem(v: unknown): string | undefined {
  return isFiniteNumber(v) ? undefined : `returned ${show(v)}; expected a finite number`;
}

/** Scorer.score: every instance's score written into `out` is finite. */
export function scoresProblem(out: ArrayLike<number>): string | undefined {
  const i = firstNonFinite(out);
  return i < 0 ? undefined : `left out[${i}] = ${show(out[i])}; expected a finite score for every instance`;
}

/** DisaggregationDecider.decide: a boolean, and a decode pod in the pool when one is named. */
export function deciderProblem(d: unknown, instances: number): string | undefined {
  if (!isRecord(d)) return `returned ${show(d)}; expected a decision object { disaggregate, reason }`;
  if (typeof d.disaggregate !== 'boolean') return `returned disaggregate ${show(d.disaggregate)}; expected true or false`;
  return d.decodeInstance === undefined ? undefined : positionProblem('decodeInstance', d.decodeInstance, instances);
}

/** AutoScalePolicy.evaluate: a whole number of replicas to add or remove. */
export function scaleProblem(d: unknown): string | undefined {
  if (!isRecord(d)) return `returned ${show(d)}; expected a decision object { delta, reason }`;
  return Number.isInteger(d.delta) ? undefined : `returned delta ${show(d.delta)}; expected a whole number of replicas`;
}

/** ReportsMetrics.metrics: an object of finite numbers. */
export function metricsProblem(m: unknown): string | undefined {
  if (!isRecord(m) || Array.isArray(m)) return `returned ${show(m)}; expected an object of finite numbers`;
  for (const [k, v] of Object.entries(m)) if (!isFiniteNumber(v)) return `returned ${k} = ${show(v)}; expected finite numbers`;
  return undefined;
}
