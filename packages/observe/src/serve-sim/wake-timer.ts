/**
 * Node's timers keep whole milliseconds and run late by up to about one more, so a token written
 * on a plain `setTimeout` leaves some 0.8 ms after the simulated instant on average (measured on
 * `blis serve-sim`), which a client sees as TTFT the simulation never had. This timer sleeps on
 * `setTimeout` until {@link POLL_US} before the instant, then polls the clock with `setImmediate`
 * (which lets network I/O run between polls) and fires at the first look at or past it. The
 * polling costs CPU while streams are open (about a third of a core on the documented demo).
 */
const POLL_US = 1000;

export class WakeTimer {
  private at = Number.POSITIVE_INFINITY;
  private timeout: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;

  /** `nowUs` is the clock `at` is on; `fire` runs once per wake-up, never early. */
  constructor(
    private readonly nowUs: () => number,
    private readonly fire: () => void,
  ) {}

  /** The instant armed (Infinity: none). */
  get armedAt(): number {
    return this.at;
  }

  /** Wakes at `at` unless already armed for an earlier instant. */
  wakeBy(at: number): void {
    if (at >= this.at) return;
    this.cancel();
    this.at = at;
    if (at !== Number.POSITIVE_INFINITY) this.arm();
  }

  cancel(): void {
    if (this.timeout !== undefined) clearTimeout(this.timeout);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timeout = undefined;
    this.immediate = undefined;
    this.at = Number.POSITIVE_INFINITY;
  }

  /** Always through the event loop, even when the instant has passed: `fire` never runs inside `wakeBy`. */
  private arm(): void {
    const left = this.at - this.nowUs();
    if (left > POLL_US) this.timeout = setTimeout(this.tick, (left - POLL_US) / 1000);
    else this.immediate = setImmediate(this.tick);
  }

  private readonly tick = (): void => {
    this.timeout = undefined;
    this.immediate = undefined;
    if (this.at - this.nowUs() > 0) {
      this.arm();
      return;
    }
    this.at = Number.POSITIVE_INFINITY;
    this.fire();
  };
}
