import { goAtoi, goInt, goParseFloat } from './go-parse.js';
import { parseTokenPdf } from './servegen-pdf.js';

// A ServeGen chunk-<id>-dataset.json: {"<window start s>": {"input_tokens": "<dict>",
// "output_tokens": "<dict>", ...}}. Decoded as Go decodes it into map[string]map[string]string.

/** The windows of a dataset file, in file order; an absent or null field reads as "". */
export type DatasetJson = { windows: [string, Record<string, string>][] } | { error: string };

export function parseDatasetJson(text: string): DatasetJson {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { error: `JSON: ${(e as Error).message}` };
  }
  if (raw === null) return { windows: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { error: 'a JSON object of windows' };
  const windows: [string, Record<string, string>][] = [];
  for (const [key, w] of Object.entries(raw)) {
    if (w === null) {
      windows.push([key, {}]);
      continue;
    }
    if (typeof w !== 'object' || Array.isArray(w)) return { error: `window ${JSON.stringify(key)}: a JSON object of strings` };
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(w)) {
      if (v !== null && typeof v !== 'string') return { error: `window ${JSON.stringify(key)} field ${JSON.stringify(k)}: a string` };
      fields[k] = v ?? '';
    }
    windows.push([key, fields]);
  }
  return { windows };
}

/** The token PMFs of one dataset window. */
export interface DatasetWindow {
  input: Map<number, number>;
  output: Map<number, number>;
}

export type DatasetWindows = { byStart: Map<number, DatasetWindow> } | { error: string };

/**
 * The windows with both PMFs, by start second (BLIS's loadServeGenDatasetAllWindows): keys read
 * as integers ("600.0" as 600), non-numeric keys and empty windows ("{}") skipped, a malformed
 * PMF an error.
 */
export function datasetWindows(text: string): DatasetWindows {
  const json = parseDatasetJson(text);
  if ('error' in json) return json;
  const byStart = new Map<number, DatasetWindow>();
  for (const [key, w] of json.windows) {
    const asInt = goAtoi(key);
    const asFloat = asInt === undefined ? goParseFloat(key) : undefined;
    if (asInt === undefined && asFloat === undefined) continue;
    const start = asInt ?? goInt(asFloat!);
    const inText = w.input_tokens ?? '';
    const outText = w.output_tokens ?? '';
    if (inText === '' || inText === '{}' || outText === '' || outText === '{}') continue;
    const input = parseTokenPdf(inText);
    if ('error' in input) return { error: `window ${start} input_tokens: ${input.error}` };
    const output = parseTokenPdf(outText);
    if ('error' in output) return { error: `window ${start} output_tokens: ${output.error}` };
    byStart.set(start, { input: input.pdf, output: output.pdf });
  }
  return { byStart };
}

/**
 * The dataset window a trace window at `second` uses: the one starting there, else the latest
 * before it (datasets are 6-hourly, traces 10-minutely); undefined when none starts at or before.
 */
export function nearestDatasetStart(second: number, byStart: ReadonlyMap<number, DatasetWindow>): number | undefined {
  if (byStart.has(second)) return second;
  let best = -1;
  for (const start of byStart.keys()) if (start <= second && start > best) best = start;
  return best >= 0 ? best : undefined;
}
