/**
 * Wall-clock time in whole µs since the Unix epoch. `Date.now()` ticks in ms, too coarse for
 * inter-chunk gaps; the monotonic high-resolution clock plus its epoch origin gives µs.
 */
export function wallMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}
