/**
 * Bounds on stopping. A connection to a Redis that is gone keeps every command queued until it
 * comes back (`maxRetriesPerRequest: null`), so anything a stop awaits on Redis must be raced
 * against a signal or a deadline, never awaited alone.
 */

/**
 * `work`, unless `signal` aborts first: then what `onAbort` returns (or throws), at once, whatever
 * `work` is waiting for. A later failure of `work` (its connection cut by the stop) is ignored.
 */
export function unlessAborted<T, A>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => A): Promise<T | A> {
  work.catch(() => {});
  if (signal === undefined) return work;
  return new Promise<T | A>((resolve, reject) => {
    const abort = () => {
      try {
        resolve(onAbort());
      } catch (e) {
        reject(e);
      }
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * Whether `work` settled within `ms`. The timer is cleared as soon as it does, so a prompt close
 * is not held up; it is not unref'd, so the process cannot slip out before the answer is known.
 */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
