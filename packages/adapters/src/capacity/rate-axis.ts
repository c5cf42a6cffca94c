import { isAbsolute, resolve } from 'node:path';
import type { SimulationConfigInput, WorkloadSource } from '@blis/cluster';
import { DEFAULT_SLO_CLASS, type LoadedSpec, type WorkloadSpec, loadWorkloadSpec, parseWorkloadSpec } from '@blis/workload';

/** A workload section a config accepts. */
export type WorkloadInput = NonNullable<SimulationConfigInput['workload']>;

/**
 * How a workload's arrival rate is turned up and down. `unit` is `req/s` when the workload states
 * an absolute rate (flags' `rate`, a spec's `aggregate_rate`), and `x` (a multiple of the
 * recorded rate) when it does not: a trace, or a spec in absolute rate mode whose windows carry
 * their own `trace_rate`.
 */
export interface RateAxis {
  unit: 'req/s' | 'x';
  /** The configured rate in `unit`: where the search starts. */
  base: number;
  /** What is scaled, for the output. */
  scales: string;
  /** The workload section at `rate` (in `unit`). */
  at(rate: number): WorkloadInput;
  /** SLO classes the workload's requests carry, or undefined when only a run can tell (traces). */
  classes: readonly string[] | undefined;
}

/** The rate axis of a validated workload section. Reads a spec file once, here. */
export function rateAxis(w: WorkloadSource): RateAxis {
  switch (w.kind) {
    case 'synthetic':
      // Flag-driven requests carry no class; the cluster reports them under the spec default.
      return { unit: 'req/s', base: w.rate, scales: 'workload.rate', at: (rate) => ({ ...w, rate }), classes: ['standard'] };
    case 'spec': {
      const spec = w.path !== undefined ? inlineSpec(loadWorkloadSpec(w.path)) : parseWorkloadSpec(w.spec);
      const { path: _path, spec: _spec, ...rest } = w;
      const classes = [...new Set(spec.clients.map((c) => c.slo_class ?? DEFAULT_SLO_CLASS))].sort();
      const ip = (spec as LoadedSpec).inferencePerf?.spec;
      // An inference-perf spec's rates are its stages' (BLIS ignores aggregate_rate there).
      if (ip !== undefined)
        return {
          unit: 'x',
          base: 1,
          scales: 'every inference_perf stage rate',
          at: (k) => ({ ...rest, spec: { ...ip, inference_perf: { ...ip.inference_perf, stages: ip.inference_perf.stages.map((s) => ({ ...s, rate: s.rate * k })) } } }),
          classes,
        };
      if (spec.aggregate_rate > 0)
        return { unit: 'req/s', base: spec.aggregate_rate, scales: 'spec aggregate_rate', at: (rate) => ({ ...rest, spec: { ...spec, aggregate_rate: rate } }), classes };
      // Absolute rate mode: every window's trace_rate is a rate, so all of them scale together.
      return { unit: 'x', base: 1, scales: "every lifecycle window's trace_rate (spec in absolute rate mode)", at: (k) => ({ ...rest, spec: scaleWindowRates(spec, k) }), classes };
    }
    case 'trace':
      // timeScale multiplies arrival times, so k times the recorded rate is timeScale 1/k.
      return { unit: 'x', base: 1 / w.timeScale, scales: 'trace timeScale (inverse)', at: (k) => ({ ...w, timeScale: 1 / k }), classes: undefined };
  }
}

function scaleWindowRates(spec: WorkloadSpec, k: number): WorkloadSpec {
  return {
    ...spec,
    clients: spec.clients.map((c) =>
      c.lifecycle === undefined
        ? c
        : { ...c, lifecycle: { windows: c.lifecycle.windows.map((win) => (win.trace_rate === undefined ? win : { ...win, trace_rate: win.trace_rate * k })) } },
    ),
  };
}

/**
 * A loaded spec as an inline object: relative `empirical` files resolved against the spec's
 * folder, since an inline spec has no folder of its own.
 */
function inlineSpec(loaded: WorkloadSpec & { baseDir?: string }): WorkloadSpec {
  const { baseDir, ...spec } = loaded;
  const dir = baseDir ?? '.';
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(o)) out[key] = fix(value);
    if (o.type === 'empirical') {
      const params = out.params as { file?: string } | undefined;
      if (params?.file !== undefined && !isAbsolute(params.file)) out.params = { ...params, file: resolve(dir, params.file) };
    }
    return out;
  };
  return fix(spec) as WorkloadSpec;
}
