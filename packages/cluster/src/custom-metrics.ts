import { PolicyError, type PolicyKind, type ReportsMetrics } from '@blis/policies';
import type { ClusterSimulator } from './cluster-simulator.js';

/** `custom_metrics` of a result: per policy key, each metric the policy reported. */
export type CustomMetrics = Record<string, Record<string, number>>;

/** A policy object that may report metrics, and the key its metrics go under. */
interface Reporter {
  readonly kind: PolicyKind;
  readonly key: string;
  readonly policy: ReportsMetrics & { readonly name: string };
}

/**
 * Every policy object of a finished run, in the order their keys are claimed: admission,
 * priority, routing, the P/D pool routers and decider, each instance's scheduler, each scaling
 * group's autoscaler. One-of-a-kind objects go under their name; objects of which there are
 * several get a suffix naming which: `name/instance_3` (schedulers, by instance id),
 * `name/prefill` (autoscalers by pool; P/D pool routers that are not the main router).
 */
function reporters(sim: ClusterSimulator): Reporter[] {
  const s = sim.settings;
  const out: Reporter[] = [
    { kind: 'admission', key: s.admission.name, policy: s.admission },
    { kind: 'priority', key: s.priority.name, policy: s.priority },
    { kind: 'routing', key: s.routing.name, policy: s.routing },
  ];
  const pd = s.pd;
  if (pd !== undefined) {
    out.push({ kind: 'routing', key: `${pd.prefillRouting.name}/prefill`, policy: pd.prefillRouting });
    out.push({ kind: 'routing', key: `${pd.decodeRouting.name}/decode`, policy: pd.decodeRouting });
    out.push({ kind: 'decider', key: pd.decider.name, policy: pd.decider });
  }
  for (const inst of sim.instances) {
    const sch = inst.config.scheduler;
    if (sch !== undefined) out.push({ kind: 'scheduler', key: `${sch.name}/${inst.config.id}`, policy: sch });
  }
  for (const g of sim.autoscaler?.policies ?? []) out.push({ kind: 'autoscaler', key: `${g.policy.name}/${g.pool}`, policy: g.policy });
  return out;
}

/**
 * Calls `metrics()` of every policy object that has it, once per object (an object serving in
 * several places reports under its first key). Undefined when no policy reported a metric, so
 * that a run without such policies has no `custom_metrics` field at all. Two different objects
 * claiming one key: the later one's key gets its kind appended (`name/routing`).
 */
export function collectCustomMetrics(sim: ClusterSimulator): CustomMetrics | undefined {
  const seen = new Set<object>();
  const out = new Map<string, Record<string, number>>();
  for (const r of reporters(sim)) {
    if (seen.has(r.policy)) continue;
    seen.add(r.policy);
    if (r.policy.metrics === undefined) continue;
    const metrics = checkedMetrics(r, r.policy.metrics(), sim.endUs);
    if (metrics.length === 0) continue;
    let key = r.key;
    if (out.has(key)) key = `${key}/${r.kind}`;
    for (let n = 2; out.has(key); n++) key = `${r.key}/${r.kind}${n}`;
    out.set(key, Object.fromEntries(metrics));
  }
  return out.size === 0 ? undefined : Object.fromEntries(out);
}

/** The reported entries, in the policy's order; a value that is not a finite number is an error. */
function checkedMetrics(r: Reporter, m: unknown, endUs: number): [string, number][] {
  const fail = (problem: string) =>
    new PolicyError({ kind: r.kind, policyName: r.policy.name, method: 'metrics', context: `the end of the run at ${endUs} µs`, problem });
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw fail(`returned ${Array.isArray(m) ? 'an array' : String(m)}; expected an object of finite numbers`);
  const entries = Object.entries(m);
  for (const [k, v] of entries)
    if (typeof v !== 'number' || !Number.isFinite(v)) throw fail(`returned ${JSON.stringify(k)}: ${typeof v === 'number' ? String(v) : typeof v}; expected a finite number`);
  return entries as [string, number][];
}
