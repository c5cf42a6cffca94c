import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutate, mutationsArb } from '../../../../tools/test-support/input-mutations.js';
import { createRequestSource, parseWorkloadSpecText } from '../../src/index.js';
import { acceptedOrLocated } from './fuzz-contract.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Workload specs (YAML) mutated from valid ones: accepted, or refused with located issues.

const EXAMPLES = ['prefix-affinity-demo.yaml', 'multiturn-chat-demo.yaml', 'autoscale-step.yaml', 'servegen-language.yaml'].map((f) =>
  readFileSync(new URL(`../../../../examples/workloads/${f}`, import.meta.url), 'utf8'),
);

describe('workload spec reader under fuzzing', () => {
  it('accepts or refuses with located, bounded messages (600 mutated specs)', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...EXAMPLES), mutationsArb(true), (spec, ms) => {
        const text = mutate(spec, ms);
        seen[acceptedOrLocated(() => parseWorkloadSpecText(text, 'spec.yaml'), ['spec.yaml'])]++;
      }),
      { numRuns: propertyRuns(600) },
    );
    // Both outcomes occur: the mutations are near-valid, not noise.
    expect(seen.accepted).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('an accepted spec starts generating (first requests) without another kind of error (150 specs)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EXAMPLES), mutationsArb(false), (spec, ms) => {
        const text = mutate(spec, ms);
        acceptedOrLocated(() => {
          // The source names the file its errors come from only when told (a spec may be built in memory).
          const src = createRequestSource(parseWorkloadSpecText(text, 'spec.yaml'), { maxRequests: 20, file: 'spec.yaml' });
          for (let i = 0; i < 20 && src.next() !== undefined; i++);
        }, ['spec.yaml']);
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});
