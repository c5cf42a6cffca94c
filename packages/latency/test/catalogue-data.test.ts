import { describe, expect, it } from 'vitest';
import { CoefficientsFileSchema, ModelDefaultsFileSchema, WorkloadPresetsFileSchema } from '../src/catalogue-schema.js';
import coefficients from '../src/data/coefficients.json';
import modelDefaults from '../src/data/model-defaults.json';
import presets from '../src/data/workload-presets.json';

// The catalogue reads its data files without validating them at start-up; this is where they
// are validated. .strict() schemas: a key the code does not know is an error here, not silently
// carried along.
describe('catalogue data files', () => {
  it('coefficients.json has the CoefficientEntry shape', () => {
    const r = CoefficientsFileSchema.safeParse(coefficients);
    expect(r.error?.issues).toBeUndefined();
    expect(coefficients.length).toBeGreaterThan(0);
  });

  it('model-defaults.json has the ModelDefault shape', () => {
    const r = ModelDefaultsFileSchema.safeParse(modelDefaults);
    expect(r.error?.issues).toBeUndefined();
  });

  it('workload-presets.json has the WorkloadPreset shape', () => {
    const r = WorkloadPresetsFileSchema.safeParse(presets);
    expect(r.error?.issues).toBeUndefined();
    expect(Object.keys(presets).sort()).toEqual(['chatbot', 'contentgen', 'multidoc', 'summarization']);
  });
});
