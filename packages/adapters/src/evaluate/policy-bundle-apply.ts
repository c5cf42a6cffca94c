import type { SimulationConfigInput } from '@blis/cluster';
import { type PolicyBundle, parsePolicyBundle, resolvePolicySpecs } from '@blis/policies';
import { autoscaleConfigFromBundle, splitPolicyMessage } from '@blis/policies/internal';
import { InvalidCandidateError } from './candidate-error.js';
import type { YamlText } from './yaml-text.js';

/** What a bundle sets in a config: the four policies, preemption, and the autoscaling sections. */
export type BundlePatch = Pick<SimulationConfigInput, 'admission' | 'priority' | 'routing' | 'scheduler' | 'preemptionPolicy' | 'autoscaling' | 'nodePools' | 'lifecycle'>;

/** Validates a parsed policy bundle; problems are the candidate's, located at `name:line path`. */
export function validateBundle(yaml: YamlText, name: string, at: readonly string[] = []): PolicyBundle {
  const r = parsePolicyBundle(yaml.value);
  if (r.success) return r.bundle;
  throw new InvalidCandidateError(
    r.issues.map((i) => {
      const line = yaml.lineOf([...at, ...i.path]);
      return { where: `${name}${line !== undefined ? `:${line}` : ''} ${i.pathText}`, ...splitPolicyMessage(i.message, i.path) };
    }),
  );
}

/**
 * The config fields a policy bundle sets, as `blis run --policy-config` sets them. Sections the
 * bundle leaves out are left out here, so the base configuration keeps its own.
 */
export function bundlePatch(bundle: PolicyBundle): BundlePatch {
  const specs = resolvePolicySpecs(bundle);
  const patch: BundlePatch = {};
  if (bundle.admission !== undefined) patch.admission = { policy: specs.admission.name, params: { ...specs.admission.params } };
  if (bundle.priority !== undefined) patch.priority = { policy: specs.priority.name, params: { ...specs.priority.params } };
  if (bundle.scheduler !== undefined) patch.scheduler = { policy: specs.scheduler.name, params: {} };
  if (bundle.preemption !== undefined) patch.preemptionPolicy = specs.preemption;
  if (bundle.routing !== undefined) {
    const params = { ...specs.routing.params };
    const scorers = params.scorers as { name: string; weight: number }[] | undefined;
    delete params.scorers;
    patch.routing = { policy: specs.routing.name, params, ...(scorers !== undefined ? { scorers } : {}) };
  }
  const a = autoscaleConfigFromBundle(bundle).config;
  if (a.autoscaling !== undefined) patch.autoscaling = a.autoscaling as SimulationConfigInput['autoscaling'];
  if (a.nodePools !== undefined) patch.nodePools = a.nodePools as SimulationConfigInput['nodePools'];
  if (a.lifecycle !== undefined) patch.lifecycle = a.lifecycle as SimulationConfigInput['lifecycle'];
  return patch;
}
