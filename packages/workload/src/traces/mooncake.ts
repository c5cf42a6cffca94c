import type { RequestSpec } from '@blis/engine';
import * as z from 'zod';
import { mooncakeBlockHashes } from '../block-hashes.js';
import { describeExpected } from '../describe-issue.js';
import { TraceReadError } from '../errors.js';
import { LineReader } from './line-reader.js';
import { type TraceOptions, TraceRequestSource } from './trace-source.js';

const RowSchema = z
  .object({
    timestamp: z.number().nonnegative(),
    input_length: z.number().int().positive(),
    output_length: z.number().int().nonnegative(),
    hash_ids: z.array(z.number().int().nonnegative()).default([]),
  })
  .loose();

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
      throw new TraceReadError({ file: path, line: ln, expected: 'a JSON object per line', found: JSON.stringify(line.slice(0, 40)) });
    }
    const r = RowSchema.safeParse(obj);
    if (!r.success) {
      const i = r.error.issues[0];
      const field = i.path.join('.');
      throw new TraceReadError({ file: path, line: ln, field, expected: describeExpected(i), found: JSON.stringify((obj as Record<string, unknown>)?.[String(i.path[0])] ?? null) });
    }
    const id = String(row++);
    return {
      index: 0,
      id,
      arrivalUs: Math.round(r.data.timestamp * 1000),
      inputTokens: r.data.input_length,
      outputTokens: r.data.output_length,
      blockHashes: mooncakeBlockHashes(r.data.hash_ids, r.data.input_length, bs, id),
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
