/** The state of a queued sweep, as the coordinator's progress line and `--status` show it. */
export interface QueuedSweepCounts {
  /** Jobs of the plan. */
  total: number;
  /** Jobs with a result (each counted once, however often it ran). */
  done: number;
  /** Jobs that failed for good (a candidate the simulator refuses, or out of attempts). */
  failed: number;
  /** Jobs waiting for a worker, or waiting out a retry's backoff. */
  queued: number;
  /** Jobs a worker holds. */
  running: number;
}

/** Jobs per second and the time left at that rate, from when this coordinator started. */
export interface QueueRate {
  perSecond: number;
  /** Seconds left at the current rate; undefined until a job has finished. */
  etaSeconds?: number;
}

/**
 * The rate of jobs finished since `startMs` (excluding what was already done then, so a resumed
 * sweep does not look faster than it runs) and the time left at that rate.
 */
export function queueRate(counts: QueuedSweepCounts, doneAtStart: number, startMs: number, nowMs: number): QueueRate {
  const finished = counts.done + counts.failed - doneAtStart;
  const seconds = Math.max(1e-3, (nowMs - startMs) / 1000);
  const perSecond = finished / seconds;
  const left = counts.total - counts.done - counts.failed;
  return perSecond > 0 ? { perSecond, etaSeconds: left / perSecond } : { perSecond };
}

/** One line for stderr: `queued 10 · running 4 · done 50/64 · failed 0 · 3.2 jobs/s · ETA 4s`. */
export function formatQueueProgress(counts: QueuedSweepCounts, rate: QueueRate): string {
  const eta = rate.etaSeconds === undefined ? '' : ` · ETA ${formatSeconds(rate.etaSeconds)}`;
  return `queued ${counts.queued} · running ${counts.running} · done ${counts.done}/${counts.total} · failed ${counts.failed} · ${rate.perSecond.toFixed(1)} jobs/s${eta}`;
}

function formatSeconds(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
