/**
 * A progress bar on stderr for commands that run many simulations (`blis sweep`, `blis
 * compare`) or many steps (`blis report`'s files and charts): tasks done of total. Drawn under the rules of ProgressBar: only after a second,
 * and only when stderr is a terminal (or BLIS_PROGRESS=1).
 */
export class TaskProgress {
  private drawn = false;
  private lastDraw = 0;
  private readonly enabled: boolean;

  /** `started`: when the command began, so that a second stage's bar keeps the command's one-second rule and wall time. */
  constructor(
    private readonly what: string,
    enabled: boolean,
    private readonly started = Date.now(),
  ) {
    this.enabled = enabled && (process.stderr.isTTY === true || process.env.BLIS_PROGRESS === '1');
  }

  /** `detail` follows the bar (a queued sweep's queued/running/failed counts and rate). */
  update(done: number, total: number, detail?: string): void {
    if (!this.enabled) return;
    const now = Date.now();
    // The last task always draws, so the bar ends at 100%.
    if (now - this.started < 1000 || (now - this.lastDraw < 100 && done < total)) return;
    this.lastDraw = now;
    const width = 30;
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(frac * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${total} ${this.what}  wall ${((now - this.started) / 1000).toFixed(1)} s${detail !== undefined ? `  ${detail}\x1b[K` : ''}`);
    this.drawn = true;
  }

  /** Ends the bar's line, so that what is written next starts on a line of its own. */
  finish(): void {
    if (this.drawn) process.stderr.write('\n');
    this.drawn = false;
  }
}
