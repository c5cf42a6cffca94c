import type { AutoScaleContext, AutoScalePolicy } from '@blis/policies';
import type { DecisionObserver, ScaleAction, ScaleEvaluation } from '@blis/trace';
import type { SimulationConfigInput } from '../../src/index.js';

/** A light, steady load: one short request per second for `seconds` seconds (`outputTokens` long answers). */
export function steadyLoad(seconds: number, rate = 1, outputTokens = 16): SimulationConfigInput['workload'] {
  return {
    kind: 'synthetic',
    rate,
    numRequests: Math.round(seconds * rate),
    promptTokens: 64,
    promptTokensStdev: 0,
    outputTokens,
    outputTokensStdev: 0,
    arrivalProcess: 'constant',
    timeoutUs: 0,
  };
}

/** A policy that asks for `plan(ctx)` (a delta) at each evaluation. */
export function scripted(plan: (ctx: AutoScaleContext) => number): AutoScalePolicy {
  return { name: 'scripted', evaluate: (ctx) => ({ delta: plan(ctx), reason: 'scripted' }) };
}

/** Records what the autoscaler and the lifecycle report. */
export class ScaleLog implements DecisionObserver {
  readonly evaluations: { now: number; e: ScaleEvaluation }[] = [];
  readonly actions: { now: number; a: ScaleAction }[] = [];
  readonly states: { now: number; instance: number; id: string; state: string }[] = [];
  onScaleEvaluation(e: ScaleEvaluation, now: number): void {
    this.evaluations.push({ now, e });
  }
  onScaleAction(a: ScaleAction, now: number): void {
    this.actions.push({ now, a });
  }
  onInstanceState(instance: number, id: string, state: string, now: number): void {
    this.states.push({ now, instance, id, state });
  }
  /** `[time s, state]` of one instance, in order. */
  timeline(instance: number): [number, string][] {
    return this.states.filter((s) => s.instance === instance).map((s) => [s.now / 1e6, s.state]);
  }
}
