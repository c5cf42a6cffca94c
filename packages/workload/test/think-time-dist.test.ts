import { describe, expect, it } from 'vitest';
import { ThinkTimeDistError, parseThinkTimeDist, sampleThinkTimeUs } from '../src/internal.js';

const z = (v: number) => () => v;

describe('--think-time-dist (BLIS ParseThinkTimeDist)', () => {
  it('reads times with s, ms, us, and bare milliseconds, truncated to whole µs', () => {
    expect(parseThinkTimeDist('constant:value=500ms')).toEqual({ type: 'constant', valueUs: 500_000 });
    expect(parseThinkTimeDist('constant:value=1.5s')).toEqual({ type: 'constant', valueUs: 1_500_000 });
    expect(parseThinkTimeDist('constant:value=250us')).toEqual({ type: 'constant', valueUs: 250 });
    expect(parseThinkTimeDist('constant:value=250')).toEqual({ type: 'constant', valueUs: 250_000 });
    expect(parseThinkTimeDist('constant:value=0.0015ms')).toEqual({ type: 'constant', valueUs: 1 });
    expect(parseThinkTimeDist('lognormal: mu=2.0, sigma=0.6, min=3s, max=30s')).toEqual({ type: 'lognormal', mu: 2, sigma: 0.6, minUs: 3_000_000, maxUs: 30_000_000 });
    expect(parseThinkTimeDist('lognormal:mu=-1,sigma=1')).toEqual({ type: 'lognormal', mu: -1, sigma: 1, minUs: 0, maxUs: 0 });
  });

  it('draws round(exp(mu + ln 1e6 + sigma z)) µs, clamped to min and max', () => {
    const d = parseThinkTimeDist('lognormal:mu=2.0,sigma=0.6,min=3s,max=30s');
    // z = 0: e^2 s = 7.389056 s.
    expect(sampleThinkTimeUs(d, z(0))).toBe(7_389_056);
    // z = -3: e^0.2 s = 1.2214 s, below min.
    expect(sampleThinkTimeUs(d, z(-3))).toBe(3_000_000);
    // z = 3: e^3.8 s = 44.70 s, above max.
    expect(sampleThinkTimeUs(d, z(3))).toBe(30_000_000);
    // Unbounded: e^-20 s rounds to 0 µs, and a draw is at least 1 µs.
    expect(sampleThinkTimeUs(parseThinkTimeDist('lognormal:mu=-20,sigma=1'), z(0))).toBe(1);
    expect(sampleThinkTimeUs(parseThinkTimeDist('constant:value=2s'), z(5))).toBe(2_000_000);
  });

  it.each([
    ['500ms', 'distribution', 'type:key=value,... ("constant:value=500ms", "lognormal:mu=2,sigma=0.6")', '"500ms"'],
    ['weibull:k=1', 'type', 'one of "constant", "lognormal"', '"weibull"'],
    ['constant:val=5', 'parameter', 'one of "value"', '"val"'],
    ['constant:value', 'parameter', 'key=value', '"value"'],
    ['constant:', 'value', 'a value ("value=...")', 'nothing (the parameter is missing)'],
    ['constant:value=-5ms', 'value', 'a time >= 0 with a unit s, ms or us (a bare number is ms)', '"-5ms"'],
    ['constant:value=0x10', 'value', 'a time >= 0 with a unit s, ms or us (a bare number is ms)', '"0x10"'],
    ['constant:value=5m', 'value', 'a time >= 0 with a unit s, ms or us (a bare number is ms)', '"5m"'],
    ['lognormal:mu=2,sigma=0', 'sigma', 'a number > 0', '"0"'],
    ['lognormal:mu=inf,sigma=1', 'mu', 'a decimal number', '"inf"'],
    ['lognormal:mu=1,sigma=1,mu=2', 'mu', 'each parameter once', '"mu" twice'],
    ['lognormal:mu=1,sigma=1,min=5s,max=2s', 'min', 'at most max (2000000 µs)', '5000000 µs'],
  ])('%s is refused, naming %s', (text, part, expected, found) => {
    let caught: unknown;
    try {
      parseThinkTimeDist(text);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ThinkTimeDistError);
    expect(caught).toMatchObject({ part, expected, found });
  });
});
