/**
 * Prometheus text exposition, read as family → value summed over every label series. Comments
 * and blank lines are skipped; a counter's `_total` suffix folds into its base name, so both
 * spellings find it. A line whose value is not a number is skipped rather than failing the scrape.
 */
export function parsePrometheusText(text: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const sample = splitSample(line);
    if (sample === undefined) continue;
    const value = parseSampleValue(sample.rest.split(/\s+/)[0]);
    if (value === undefined) continue;
    const name = sample.name.endsWith('_total') ? sample.name.slice(0, -'_total'.length) : sample.name;
    sums.set(name, (sums.get(name) ?? 0) + value);
  }
  return sums;
}

/** Name and what follows the labels; label values are quoted and may hold `}` or `,`. */
function splitSample(line: string): { name: string; rest: string } | undefined {
  const m = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (m === null) return undefined;
  let i = m[0].length;
  if (line[i] === '{') {
    let quoted = false;
    for (i++; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '\\') i++;
        else if (ch === '"') quoted = false;
      } else if (ch === '"') quoted = true;
      else if (ch === '}') break;
    }
    if (i >= line.length) return undefined;
    i++;
  }
  const rest = line.slice(i).trim();
  return rest === '' ? undefined : { name: m[0], rest };
}

function parseSampleValue(text: string): number | undefined {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return undefined;
  const v = Number(text);
  return text !== '' && Number.isFinite(v) ? v : undefined;
}
