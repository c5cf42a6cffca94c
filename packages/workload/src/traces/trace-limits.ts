// What a trace may hold. Traces are read a line at a time, so their length costs time, not
// memory; these bound what one line can cost, and the one reading that keeps every row.

import { MAX_TOKENS_PER_REQUEST } from '../request-limits.js';

/** Limits of the trace readers (TraceV2, Azure CSV, Mooncake JSONL), stated in their messages. */
export const TRACE_LIMITS = {
  /** Longest line, in characters (1 MiB): a row is a few hundred; longer is not a trace. */
  maxLineChars: 1024 * 1024,
  /** Most tokens in one request's prompt or answer: {@link MAX_TOKENS_PER_REQUEST}. */
  maxRequestTokens: MAX_TOKENS_PER_REQUEST,
  /**
   * Most rows of a TraceV2 trace whose send times are out of order: those rows are all held in
   * memory to be sorted (an ordered trace streams and has no limit).
   */
  maxSortedRows: 5_000_000,
} as const;
