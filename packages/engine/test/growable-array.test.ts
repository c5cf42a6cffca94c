import { describe, expect, it } from 'vitest';
import { GrowableFloat64 } from '../src/growable-array.js';

// GrowableFloat64.columns: arrays whose first rows share one buffer (one off-heap store per log
// instead of one per column) must behave as separate arrays, before and after they outgrow it.

describe('GrowableFloat64', () => {
  it('doubles when full, keeping every value', () => {
    const a = new GrowableFloat64(2);
    for (let i = 0; i < 9; i++) a.push(i * 1.5);
    expect(Array.from(a.view())).toEqual([0, 1.5, 3, 4.5, 6, 7.5, 9, 10.5, 12]);
    expect(a.get(8)).toBe(12);
  });

  it('columns: each is its own array, whichever fills first or outgrows its share', () => {
    const cols = GrowableFloat64.columns(3, 4);
    expect(new Set(cols).size).toBe(3);
    for (let i = 0; i < 4; i++) cols[0].push(i);
    for (let i = 0; i < 10; i++) cols[1].push(100 + i);
    cols[2].push(-1);
    expect(Array.from(cols[0].view())).toEqual([0, 1, 2, 3]);
    expect(Array.from(cols[1].view())).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    expect(Array.from(cols[2].view())).toEqual([-1]);
    for (let i = 4; i < 6; i++) cols[0].push(i);
    cols[2].push(-2);
    expect(Array.from(cols[0].view())).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(cols[2].view())).toEqual([-1, -2]);
    expect(Array.from(cols[1].view()).slice(0, 4)).toEqual([100, 101, 102, 103]);
  });

  it('columns start empty and zeroed', () => {
    const [a, b] = GrowableFloat64.columns(2);
    expect(a.length).toBe(0);
    expect(b.view().length).toBe(0);
    expect(a.get(255)).toBe(0);
    expect(b.get(0)).toBe(0);
  });
});
