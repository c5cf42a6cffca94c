/** Number formats and the issue shape shared by the summary's sections. */

export const ms = (us: number) => (us / 1000).toFixed(1);
export const pct = (a: number, b: number) => `${b === 0 ? '0.0' : ((100 * a) / b).toFixed(1)}%`;
export const r3 = (x: number) => x.toFixed(3);
export const cls = (name: string) => (name === '' ? 'unspecified' : name);
export const mean = (sum: number, n: number) => (n === 0 ? 0 : sum / n);

/** One entry of the summary's key issues: a headline and its supporting facts. */
export interface Issue {
  head: string;
  details: string[];
}
