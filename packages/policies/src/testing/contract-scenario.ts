import fc from 'fast-check';
import type { RequestView } from '../views.js';
import type { SnapshotInit } from './builders.js';
import { type AutoScaleInit, autoScaleInitArb, requestInitArb, snapshotInitArb } from './view-arbitraries.js';

/** One decision's inputs, as plain data (so a failing case prints readably). */
export interface ContractStep {
  /** µs since the previous step (the clock never goes back). */
  readonly advanceUs: number;
  /** The request (its index and arrival are set from the step's position and time). */
  readonly request: Partial<RequestView>;
  /** One snapshot per instance. */
  readonly instances: readonly SnapshotInit[];
  readonly saturation: number;
  readonly globalInFlight: number;
  readonly tenantInFlight: number;
  /** Picks an instance (`pick % instances`) where the harness has to choose one (observe, decide). */
  readonly pick: number;
  /** What an autoscaler sees at this step. */
  readonly autoscale: AutoScaleInit;
}

/** A generated run of one policy: how many instances, the seed of its random stream, and its steps. */
export interface ContractScenario {
  readonly instances: number;
  readonly seed: number;
  readonly steps: readonly ContractStep[];
}

/** Options of {@link contractScenarioArb}. */
export interface ContractScenarioOptions {
  /** Fewest and most instances. Defaults 1 and 8. */
  minInstances?: number;
  maxInstances?: number;
  /** Most decisions per run. Default 12. */
  maxSteps?: number;
}

/** Generated runs for the policy contract harness: instances fixed per run, time moving forward. */
export function contractScenarioArb(options: ContractScenarioOptions = {}): fc.Arbitrary<ContractScenario> {
  const min = options.minInstances ?? 1;
  const max = Math.max(min, options.maxInstances ?? 8);
  return fc.integer({ min, max }).chain((instances) =>
    fc.record({
      instances: fc.constant(instances),
      seed: fc.integer(),
      steps: fc.array(
        fc.record({
          advanceUs: fc.oneof(fc.constant(0), fc.nat(2_000_000)),
          request: requestInitArb,
          instances: fc.array(snapshotInitArb, { minLength: instances, maxLength: instances }),
          saturation: fc.double({ min: 0, max: 3, noNaN: true }),
          globalInFlight: fc.nat(1000),
          tenantInFlight: fc.nat(20),
          pick: fc.nat(),
          autoscale: autoScaleInitArb,
        }),
        { minLength: 1, maxLength: options.maxSteps ?? 12 },
      ),
    }),
  );
}
