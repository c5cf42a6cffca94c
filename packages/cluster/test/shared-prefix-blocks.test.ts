import type { RequestSource, RequestSpec } from '@blis/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, SimulationConfigSchema } from '../src/config-schema.js';
import { prepareSimulation, runPrepared, simulate } from '../src/simulate.js';
import { simulationConfigArb } from '../src/testing/index.js';
import { openWorkload } from '../src/workload-source.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/**
 * `RequestSpec.sharedPrefixBlocks` lets the cache scorers skip their look-ups for a request whose
 * first block is its own. That is exact only if no cache can hold such a block when the request
 * is routed. Two checks on generated clusters (prefix groups, sessions, P/D, autoscaling, KV
 * tiers, tiny caches): every block past a request's shared ones hashes content no other request
 * carries, and runs with the field give results identical to runs where the workload says
 * nothing (the scorers then ask every cache).
 */
const SCALE = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(100)) / 100;
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

/** Scorer profiles that read the caches, beside the generated config's own routing. */
const cacheRoutingArb = fc.constantFrom<SimulationConfigInput['routing'] | undefined>(
  undefined,
  { policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 2 }, { name: 'queue-depth', weight: 1 }, { name: 'kv-utilization', weight: 1 }] },
  { policy: 'weighted', scorers: [{ name: 'no-hit-lru', weight: 1 }, { name: 'precise-prefix-cache', weight: 1 }] },
  { policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 1 }] },
);

type Client = { reasoning?: { multi_turn?: Record<string, unknown> } };

/** Multi-turn clients that carry their context over (their answers' blocks are hashed too), sometimes. */
function withContext(config: SimulationConfigInput, accumulate: boolean): SimulationConfigInput {
  const w = config.workload as { kind: string; spec?: { clients?: Client[] } };
  if (!accumulate || w.kind !== 'spec' || w.spec?.clients === undefined) return config;
  const clients = w.spec.clients.map((c) =>
    c.reasoning?.multi_turn === undefined ? c : { ...c, reasoning: { ...c.reasoning, multi_turn: { ...c.reasoning.multi_turn, context_growth: 'accumulate' } } },
  );
  return { ...config, workload: { ...w, spec: { ...w.spec, clients } } } as SimulationConfigInput;
}

const configArb = fc
  .tuple(simulationConfigArb({ pd: 'sometimes', autoscaling: 'sometimes', kvTiers: 'sometimes', maxInputTokens: 400, engineChecks: false }), cacheRoutingArb, fc.boolean())
  .map(([config, routing, accumulate]) => withContext(routing === undefined ? config : { ...config, routing }, accumulate));

/** Tiny caches and long answers: preemption everywhere, so deferred blocks get registered late. */
const preemptingArb = fc
  .tuple(simulationConfigArb({ maxKvBlocks: 24, maxInputTokens: 200, maxOutputTokens: 120, engineChecks: false }), cacheRoutingArb, fc.boolean(), fc.constantFrom(1, 4, 16))
  .map(([config, routing, accumulate, blockSizeTokens]) => withContext({ ...(routing === undefined ? config : { ...config, routing }), blockSizeTokens }, accumulate));

/** The config's own request stream, with every request it hands out kept; `forget` drops the field. */
function recordingSource(config: SimulationConfigInput, forget: boolean): { source: RequestSource; specs: RequestSpec[] } {
  const c = SimulationConfigSchema.parse(config);
  const inner = openWorkload(c.workload, { seed: c.seed, blockSizeTokens: c.blockSizeTokens, horizonUs: c.horizonUs });
  const specs: RequestSpec[] = [];
  const source: RequestSource = {
    peekArrivalUs: () => inner.peekArrivalUs(),
    next: () => {
      const spec = inner.next();
      if (spec !== undefined) {
        // In place: closed-loop sources know their requests by identity.
        if (forget) delete spec.sharedPrefixBlocks;
        specs.push(spec);
      }
      return spec;
    },
    ...(inner.onRequestDone !== undefined ? { onRequestDone: (spec, t, outcome) => inner.onRequestDone?.(spec, t, outcome) } : {}),
  };
  return { source, specs };
}

function run(config: SimulationConfigInput, forget: boolean) {
  const { source, specs } = recordingSource(config, forget);
  const result = runPrepared(prepareSimulation(config, { source }));
  return { result, specs };
}

describe('sharedPrefixBlocks', () => {
  it('marks as shared every block another request of the workload carries', () => {
    let own = 0;
    fc.assert(
      fc.property(configArb, (config) => {
        const { specs } = run(config, false);
        const holders = new Map<number, Set<number>>();
        const note = (hashes: ArrayLike<number> | undefined, r: number) => {
          for (let i = 0; i < (hashes?.length ?? 0); i++) {
            const h = (hashes as ArrayLike<number>)[i];
            let s = holders.get(h);
            if (s === undefined) holders.set(h, (s = new Set()));
            s.add(r);
          }
        };
        specs.forEach((s, r) => {
          note(s.blockHashes, r);
          note(s.kvBlockHashes, r);
        });
        specs.forEach((s, r) => {
          expect(s.sharedPrefixBlocks, `request ${s.id}: the spec workload names its requests, so it can tell`).toBeTypeOf('number');
          const from = s.sharedPrefixBlocks as number;
          expect(from).toBeLessThanOrEqual(s.blockHashes.length);
          for (let i = from; i < s.blockHashes.length; i++) {
            expect([...(holders.get(s.blockHashes[i]) ?? [])], `request ${s.id} block ${i} (shared: ${from})`).toEqual([r]);
            own++;
          }
        });
      }),
      { numRuns: runs(60) },
    );
    // The generated workloads must exercise the claim, or this test proves nothing.
    expect(own).toBeGreaterThan(0);
  });

  it('gives the results of runs whose workload does not say', () => {
    let shortcuts = 0;
    fc.assert(
      fc.property(configArb, (config) => {
        const told = run(config, false);
        const untold = run(config, true);
        expect(told.result).toEqual(untold.result);
        shortcuts += told.specs.filter((s) => s.sharedPrefixBlocks === 0).length;
      }),
      { numRuns: runs(80) },
    );
    expect(shortcuts).toBeGreaterThan(0);
  });

  it('leaves the answer blocks of a session round registered for its next round (the multi-turn chat example, against the reference engine)', () => {
    const spec = {
      version: '2',
      seed: 42,
      aggregate_rate: 500,
      num_requests: 120,
      clients: [
        {
          id: 'chat',
          rate_fraction: 1,
          arrival: { process: 'poisson' },
          input_distribution: { type: 'gaussian', params: { mean: 128, std_dev: 30, min: 32, max: 512 } },
          output_distribution: { type: 'gaussian', params: { mean: 64, std_dev: 20, min: 16, max: 256 } },
          reasoning: { multi_turn: { max_rounds: 5, think_time_us: 500_000, context_growth: 'accumulate' } },
        },
      ],
    };
    const config: SimulationConfigInput = { numInstances: 4, seed: 7, routing: { policy: 'weighted' }, totalKVBlocks: 3000, workload: { kind: 'spec', spec }, includeRequests: true };
    const fast = simulate(config);
    expect(fast).toEqual(simulate(config, { stepByStep: true }));
    // The rounds do hit what earlier rounds left, or this case proves nothing.
    expect(fast.requests?.some((r) => ((r as { cache_hit_blocks?: number }).cache_hit_blocks ?? 0) > 0)).toBe(true);
  });

  it('defers the registration of own blocks without changing a result (against the reference engine, which registers every block as it fills)', () => {
    fc.assert(
      fc.property(fc.oneof(configArb, preemptingArb), (config) => {
        expect(simulate(config)).toEqual(simulate(config, { stepByStep: true }));
      }),
      { numRuns: runs(120) },
    );
  });
});
