import { splitCsv } from './line-reader.js';
import type { Lines } from './text-lines.js';

/**
 * What a TraceV2 reader needs to know about the `send_time_us` column before the first row: the
 * shift that turns wall-clock send times into simulation times, and whether injection times come
 * in order.
 */
export interface SendTimeScan {
  /** Subtracted from every positive send time: the earliest one when send times are wall-clock epoch times, else 0. */
  shift: number;
  /** Injection times (send time when positive, else arrival) never decrease in file order. */
  ordered: boolean;
}

/**
 * BLIS injects a row at its `send_time_us` when that is positive (the HTTP dispatch, after any
 * concurrency wait, which is also calibrate's latency baseline), else at `arrival_time_us`.
 * `blis observe` writes send times as epoch microseconds; BLIS replays them as they are (an idle
 * gap of some 1.7e15 µs before the first request). The earliest becomes 0 here instead. `mode:
 * real` does not tell them apart (BLIS's `convert` writes it over workload-relative times), so
 * send times from {@link EPOCH_THRESHOLD_US} on count as wall-clock ones.
 * Concurrent dispatch can also record sends a few µs out of file order, which the caller then sorts.
 */
export function scanSendTimes(lines: Lines, sendCol: number, arrivalCol: number, unitUs: number): SendTimeScan {
  let min = Number.POSITIVE_INFINITY;
  let prev = Number.NEGATIVE_INFINITY;
  let ordered = true;
  try {
    lines.next(); // column names
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      // Malformed rows are left for the main pass, which reports them with their line numbers.
      const c = splitCsv(line);
      const send = Number(c[sendCol]);
      const at = Number.isFinite(send) && send > 0 ? send : Number(c[arrivalCol]);
      if (!Number.isFinite(at)) continue;
      if (send > 0 && send < min) min = send;
      if (at < prev) ordered = false;
      prev = at;
    }
  } finally {
    lines.close();
  }
  return { shift: min !== Number.POSITIVE_INFINITY && min * unitUs >= EPOCH_THRESHOLD_US ? min : 0, ordered };
}

/** 10¹² µs, 11.6 days: no workload runs that long before its first request; every epoch time since 1970-01-12 is past it. */
export const EPOCH_THRESHOLD_US = 1e12;
