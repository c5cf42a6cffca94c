import { formatParamPath, jsonSyntaxProblem, messageText, valueExcerpt, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import { CalibrationInputError } from './errors.js';
import { readResultsText } from './results-text.js';
import { numericRequestId } from './request-id.js';

/** One simulated request, server-side latencies in µs, keyed by the trace's numeric id. */
export interface SimRequestResult {
  requestId: number;
  ttftUs: number;
  e2eUs: number;
  inputTokens: number;
  outputTokens: number;
  sloClass: string;
  model: string;
  /** Mean inter-token latency; 0 when the results did not record one. */
  itlMeanUs: number;
}

const count = z.number().int().nonnegative();
const latency = z.number().nonnegative().refine(Number.isFinite, 'a finite number');

// BLIS's `blis replay --results-path`: a bare array, µs, ids `request_<N>`.
const BlisRowSchema = z.object({
  request_id: z.union([z.number().int().nonnegative(), z.string()]),
  ttft_us: latency,
  e2e_us: latency,
  input_tokens: count,
  output_tokens: count,
  slo_class: z.string().optional(),
  model: z.string().optional(),
  itl_mean_us: latency.optional(),
});

// Ours: the result object of `blis run/replay --results-path`, per-request rows under `requests`, ms.
const OursRowSchema = z.object({
  request_id: z.string(),
  input_tokens: count,
  output_tokens: count,
  ttft_ms: latency,
  itl_ms: latency,
  e2e_ms: latency,
  slo_class: z.string().optional(),
});
const OursSchema = z.object({ requests: z.array(OursRowSchema) });

/** Parses either results format from its JSON text; `file` names the source in errors. */
export function parseSimResults(text: string, file: string): SimRequestResult[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    // In our words, at its line and column: V8's message varies by version and quotes the input.
    const p = jsonSyntaxProblem(text, 'the end of the file');
    if (p === undefined) throw new CalibrationInputError([{ file, expected: 'JSON (the results of `blis replay --results-path`)', found: messageText((e as Error).message) }]);
    throw new CalibrationInputError([{ file, line: p.line, expected: `JSON (the results of \`blis replay --results-path\`): ${p.expected}`, found: p.found === 'the end of the file' ? p.found : `${p.found} at column ${p.column}` }]);
  }
  const rows: SimRequestResult[] = [];
  if (Array.isArray(raw)) {
    const r = z.array(BlisRowSchema).safeParse(raw);
    if (!r.success) throw schemaIssue(file, r.error, raw);
    r.data.forEach((row, i) => {
      rows.push({
        requestId: idOf(row.request_id, file, `[${i}].request_id`),
        ttftUs: row.ttft_us,
        e2eUs: row.e2e_us,
        inputTokens: row.input_tokens,
        outputTokens: row.output_tokens,
        sloClass: row.slo_class ?? '',
        model: row.model ?? '',
        itlMeanUs: row.itl_mean_us ?? 0,
      });
    });
  } else {
    const r = OursSchema.safeParse(raw);
    if (!r.success) {
      const hasRequests = raw !== null && typeof raw === 'object' && 'requests' in raw;
      if (!hasRequests)
        throw new CalibrationInputError([{ file, expected: 'a JSON array of per-request results (BLIS) or a result object with a `requests` array (`blis replay --results-path`)', found: raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'an object without `requests`' : typeof raw }]);
      throw schemaIssue(file, r.error, raw);
    }
    r.data.requests.forEach((row, i) => {
      rows.push({
        requestId: idOf(row.request_id, file, `requests[${i}].request_id`),
        ttftUs: row.ttft_ms * 1000,
        e2eUs: row.e2e_ms * 1000,
        inputTokens: row.input_tokens,
        outputTokens: row.output_tokens,
        sloClass: row.slo_class ?? '',
        model: '',
        itlMeanUs: row.itl_ms * 1000,
      });
    });
  }
  if (rows.length === 0) throw new CalibrationInputError([{ file, expected: 'at least one simulated request', found: 'none' }]);
  return rows;
}

/** Reads and parses a results file. */
export function readSimResults(path: string): SimRequestResult[] {
  return parseSimResults(readResultsText(path, 'results JSON file'), path);
}

function idOf(raw: string | number, file: string, field: string): number {
  const id = numericRequestId(raw);
  if (id === undefined) throw new CalibrationInputError([{ file, field, expected: 'a numeric request id (`17` or `request_17`)', found: valueExcerpt(raw) }]);
  return id;
}

function schemaIssue(file: string, error: z.ZodError, raw: unknown): CalibrationInputError {
  const [t] = zodIssueTexts(error.issues, raw);
  const field = formatParamPath(t.path, '');
  return new CalibrationInputError([{ file, field: field === '' ? undefined : field, expected: t.expected, found: t.found }]);
}
