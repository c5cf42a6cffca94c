import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type SimulationConfigInput, type SimulationRuntime, simulate } from '@blis/cluster';
import { PartitionedRng } from '@blis/engine';
import type { PolicyFactoryContext, RoutingPolicy } from '@blis/policies';
import { parseDecisionTree } from '../decision-tree/parse.js';
import { decisionTreePolicyFactory } from '../decision-tree/policy-factory.js';
import { extractMetrics } from './sweep-metrics.js';
import { importModule } from '../import-module.js';

/** One simulation of a sweep: a candidate's config with one seed. Plain data, so it crosses to a worker thread. */
export interface SweepTask {
  candidate: number;
  seed: number;
  config: SimulationConfigInput;
  metrics: readonly string[];
  /**
   * An ES module whose default export builds the routing policy, or a routing decision tree
   * (`.yaml`/`.yml`), as `blis compare` names them: loaded in the thread that runs the task, as
   * `blis run --routing-policy` loads it.
   */
  routingModule?: string;
}

/** What a task reports: its key and its metrics. */
export interface SweepRow {
  candidate: number;
  seed: number;
  metrics: Record<string, number | null>;
}

/** Runs one task (in a worker thread or inline). */
export async function runSweepTask(task: SweepTask): Promise<SweepRow> {
  const runtime: SimulationRuntime = {};
  if (task.routingModule !== undefined) {
    runtime.routing = await loadRoutingModule(task.routingModule, task);
    runtime.policySources = { routing: task.routingModule };
  }
  const result = simulate(task.config, runtime);
  return { candidate: task.candidate, seed: task.seed, metrics: extractMetrics(result, task.metrics) };
}

/**
 * Builds a custom routing policy from its module with the context the CLI gives it: the run's
 * instance count and block size, and the `custom/routing` stream of the task's seed.
 */
async function loadRoutingModule(path: string, task: SweepTask): Promise<RoutingPolicy> {
  let factory: unknown;
  if (/\.ya?ml$/i.test(path)) factory = decisionTreePolicyFactory(parseDecisionTree(readFileSync(path, 'utf8'), { file: path, kind: 'routing' }));
  else factory = (await importModule<{ default?: unknown }>(pathToFileURL(resolve(path)).href)).default;
  if (typeof factory !== 'function') throw new Error(`${path}: expected a default export that is a policy factory function, found ${typeof factory}`);
  const ctx: PolicyFactoryContext = {
    numInstances: task.config.numInstances ?? 1,
    // `blis compare --policy-param routing.*` rides in the config's routing params.
    params: structuredClone(task.config.routing?.params ?? {}) as Record<string, unknown>,
    random: new PartitionedRng(task.seed).stream('custom/routing'),
    blockSizeTokens: task.config.blockSizeTokens ?? 16,
  };
  return (factory as (c: PolicyFactoryContext) => RoutingPolicy)(ctx);
}
