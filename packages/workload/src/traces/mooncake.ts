import type { RequestSpec } from '@blis/engine';
import * as z from 'zod';
import { mooncakeBlockHashes, mooncakeSharedBlocks } from '../block-hashes.js';
import { describeExpected } from '../describe-issue.js';
import { TraceReadError } from '../errors.js';
import { fieldPathText, quoteExcerpt, valueExcerpt } from '../text-excerpt.js';
import { LineReader } from './line-reader.js';
import { TRACE_LIMITS } from './trace-limits.js';
import { type TraceOptions, TraceRequestSource } from './trace-source.js';
import { lazySchema } from '@blis/policies/internal';

const RowSchema = lazySchema(() =>
  z
    .object({
      // In ms: arrivals in µs stay exact integers.
      timestamp: z.number().nonnegative().max(Math.floor(Number.MAX_SAFE_INTEGER / 1000)),
      input_length: z.number().int().positive().max(TRACE_LIMITS.maxRequestTokens),
      output_length: z.number().int().nonnegative().max(TRACE_LIMITS.maxRequestTokens),
      hash_ids: z.array(z.number().int().nonnegative()).default([]),
    })
    .loose(),
);

/** The value at `path` in a parsed row. */
function fieldValue(obj: unknown, path: readonly PropertyKey[]): unknown {
  let v = obj;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/**
 * Streams a Mooncake JSONL trace: `timestamp` in ms, lengths, and `hash_ids` of 512-token blocks,
 * re-blocked to the simulator's block size so that equal ids stay shared.
 */
export function openMooncakeTrace(path: string, opts: TraceOptions = {}): TraceRequestSource {
  const lines = new LineReader(path);
  const bs = opts.blockSizeTokens ?? 16;
  let row = 0;
  const read = (): RequestSpec | undefined => {
    let line = lines.next();
    while (line !== undefined && line.trim() === '') line = lines.next();
    if (line === undefined) return undefined;
    const ln = lines.lineNumber;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new TraceReadError({ file: path, line: ln, expected: 'a Mooncake trace, one JSON object per line', found: quoteExcerpt(line) });
    }
    const r = RowSchema.safeParse(obj);
    if (!r.success) {
      const i = r.error.issues[0];
      const field = fieldPathText(i.path);
      const value = fieldValue(obj, i.path);
      throw new TraceReadError({ file: path, line: ln, field: field === '' ? undefined : field, expected: describeExpected(i), found: value === undefined ? 'nothing (the field is missing)' : valueExcerpt(value) });
    }
    const id = String(row++);
    return {
      index: 0,
      id,
      arrivalUs: Math.round(r.data.timestamp * 1000),
      inputTokens: r.data.input_length,
      outputTokens: r.data.output_length,
      blockHashes: mooncakeBlockHashes(r.data.hash_ids, r.data.input_length, bs, id),
      // Ids are row numbers, so the blocks past the listed hash ids are this request's alone.
      sharedPrefixBlocks: mooncakeSharedBlocks(r.data.hash_ids, r.data.input_length, bs),
      clientId: '',
      tenantId: '',
      sloClass: '',
      sessionId: '',
      roundIndex: 0,
      prefixGroup: '',
      prefixLength: 0,
      streaming: false,
      deadlineUs: 0,
      sloTargetUs: 0,
      networkDelayUs: 0,
    };
  };
  return new TraceRequestSource(path, read, () => lines.lineNumber, opts, 'timestamp');
}
