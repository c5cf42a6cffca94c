/**
 * A poll loop's sleep that something can cut short: a Redis message saying there is news (a
 * finished job, a new sweep), or the abort signal of Ctrl-C. A wake that comes while the loop is
 * busy is kept for its next wait, so no news is missed between two polls.
 */
export class Wakeup {
  private pending = false;
  private release?: () => void;

  wake(): void {
    if (this.release !== undefined) this.release();
    else this.pending = true;
  }

  /** Resolves after `ms`, at the next wake, or when `signal` aborts, whichever comes first. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted === true) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.release = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.release = done;
    });
  }
}
