import { describe, expect, it } from 'vitest';
import { propertyRuns, propertyScale } from '../test-support/property-runs.js';

describe('the property-run budget (BLIS_PROPERTY_SCALE)', () => {
  it('scales a case count, rounding, and never below one case', () => {
    expect(propertyRuns(150, 1)).toBe(150);
    expect(propertyRuns(150, 10)).toBe(1500);
    expect(propertyRuns(150, 0.1)).toBe(15);
    expect(propertyRuns(25, 0.1)).toBe(3); // 2.5 rounds up
    expect(propertyRuns(3, 0.01)).toBe(1);
  });

  it('reads the multiplier, 1 when unset or blank, and refuses anything but a positive number', () => {
    expect(propertyScale(undefined)).toBe(1);
    expect(propertyScale(' ')).toBe(1);
    expect(propertyScale('2.5')).toBe(2.5);
    for (const bad of ['0', '-1', 'ten', 'Infinity']) expect(() => propertyScale(bad)).toThrow(`BLIS_PROPERTY_SCALE: expected a positive number, found "${bad}"`);
  });
});
