/** Clamps to [0, 1]; NaN becomes 0 so a broken signal can never win an argmax. */
export function clampUnit(x: number): number {
  if (x > 1) return 1;
  if (x >= 0) return x;
  return 0;
}
