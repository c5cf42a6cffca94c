/**
 * A progress bar on stderr, drawn only for runs that last more than a second and only when
 * stderr is a terminal (or BLIS_PROGRESS=1), so logs and pipes stay clean.
 */
export class ProgressBar {
  private readonly total: number | undefined;
  private readonly started = Date.now();
  private drawn = false;
  private lastDraw = 0;
  /** Whether the bar can draw at all: a run passes it no progress callback otherwise. */
  readonly enabled: boolean;

  constructor(total: number | undefined, enabled: boolean) {
    this.total = total;
    this.enabled = enabled && (process.stderr.isTTY === true || process.env.BLIS_PROGRESS === '1');
  }

  update(done: number, simTimeUs: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.started < 1000 || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const width = 30;
    let bar: string;
    if (this.total !== undefined && this.total > 0) {
      const frac = Math.min(1, done / this.total);
      const filled = Math.round(frac * width);
      bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${this.total}`;
    } else {
      bar = `${done} requests done`;
    }
    process.stderr.write(`\r${bar}  sim ${(simTimeUs / 1e6).toFixed(1)} s  wall ${((now - this.started) / 1000).toFixed(1)} s`);
    this.drawn = true;
  }

  finish(): void {
    if (this.drawn) process.stderr.write('\n');
  }
}
