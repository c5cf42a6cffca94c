import { goInt, goParseFloat } from './go-parse.js';

// ServeGen's distributions are Python dict literals in JSON strings: "{100: 0.5, 200: 0.3}" for
// token counts, "{0.0: 0.1, 0.5: 0.3}" (keys maybe quoted) for reasoning ratios. Read as BLIS
// reads them (parseServeGenPDF, parseServeGenFloatPDF): split on commas, keys as floats.

export type PdfResult<K> = { pdf: Map<K, number> } | { error: string };

function entries(s: string): { pairs: [string, string][] } | { error: string } {
  const t = s.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return { error: `expected a dict string starting with '{' and ending with '}', found ${JSON.stringify(t.slice(0, 40))}` };
  const body = t.slice(1, -1).trim();
  if (body === '') return { error: 'an empty PDF dictionary' };
  const pairs: [string, string][] = [];
  for (const raw of body.split(',')) {
    const pair = raw.trim();
    if (pair === '') continue;
    const colon = pair.indexOf(':');
    if (colon < 0) return { error: `an invalid key:value pair ${JSON.stringify(pair)}` };
    pairs.push([pair.slice(0, colon).trim(), pair.slice(colon + 1).trim()]);
  }
  return { pairs };
}

/** A token-count PMF: keys truncated to integers (Python writes 100.0), a later equal key wins. */
export function parseTokenPdf(s: string): PdfResult<number> {
  const e = entries(s);
  if ('error' in e) return e;
  const pdf = new Map<number, number>();
  for (const [k, v] of e.pairs) {
    const key = goParseFloat(k);
    if (key === undefined) return { error: `an invalid key ${JSON.stringify(k)}` };
    const value = goParseFloat(v);
    if (value === undefined) return { error: `an invalid value ${JSON.stringify(v)} for key ${goInt(key)}` };
    pdf.set(goInt(key), value);
  }
  return pdf.size === 0 ? { error: 'no valid entries in the PDF dictionary' } : { pdf };
}

/** A reasoning-ratio PMF: keys (quoted or not) in [0, 1], probabilities not negative. */
export function parseRatioPdf(s: string): PdfResult<number> {
  const e = entries(s);
  if ('error' in e) return e;
  const pdf = new Map<number, number>();
  for (const [k, v] of e.pairs) {
    const text = k.replace(/^"+|"+$/g, '');
    const key = goParseFloat(text);
    if (key === undefined) return { error: `an invalid key ${JSON.stringify(text)}` };
    // As Go compares: a NaN key passes.
    if (key < 0 || key > 1) return { error: `a reason_ratio key ${key} outside [0, 1]` };
    const value = goParseFloat(v);
    if (value === undefined) return { error: `an invalid value ${JSON.stringify(v)} for key ${key}` };
    if (value < 0) return { error: `a negative probability ${value} for key ${key}` };
    pdf.set(key, value);
  }
  return pdf.size === 0 ? { error: 'no valid entries in the PDF dictionary' } : { pdf };
}
