import { gapSampler } from './arrivals.js';
import { WindowCursor } from './blis-draws.js';
import { lengthSampler } from './distributions.js';
import type { GoRand } from './go-rand/go-rand.js';
import type { Lengths } from './sessions/session-draws.js';
import type { LoadedSpec } from './spec-load.js';
import type { ClientSpec } from './spec-schema.js';
import { plannedWindow } from './window-rate.js';

/** What a client brings to its windows: its stream and its own lengths. */
interface WindowClient {
  rng: GoRand | undefined;
  lengths: Lengths;
}

/** The draws one request (or session start) of a window makes, and nothing else. */
export type DryDraw = (rng: GoRand, lengths: Lengths, cs: ClientSpec, time: number) => void;

/**
 * The windows of the per-window generator, in client then window order (BLIS's
 * generateTimeVaryingRequests): a window starting at or after the horizon is skipped, one
 * ending after it is cut there, and one whose rate is 0 sends nothing. A client's windows share
 * its stream in spec order; when they also follow each other in time they run one after
 * another (`queues` holds each such client's windows after its first), otherwise each starts
 * from where a dry run of the ones before it left the stream. `first` are the windows to start.
 */
export function buildWindowCursors(
  spec: LoadedSpec,
  clients: readonly WindowClient[],
  horizon: number,
  dry: DryDraw,
): { windows: WindowCursor[]; queues: Map<number, WindowCursor[]>; first: WindowCursor[] } {
  const windows: WindowCursor[] = [];
  const queues = new Map<number, WindowCursor[]>();
  const first: WindowCursor[] = [];
  spec.clients.forEach((c, ci) => {
    const client = clients[ci];
    const rng = client.rng;
    if (rng === undefined || c.lifecycle === undefined) return;
    const cursors: WindowCursor[] = [];
    for (const w of c.lifecycle.windows) {
      const planned = plannedWindow(spec, c, w, horizon);
      if (planned === undefined) continue;
      cursors.push(
        new WindowCursor(
          ci,
          windows.length + cursors.length,
          w.start_us,
          planned.end,
          planned.count,
          gapSampler(w.arrival ?? c.arrival, planned.rate / 1e6),
          w.input_distribution !== undefined ? lengthSampler(w.input_distribution, spec.baseDir) : client.lengths.input,
          w.output_distribution !== undefined ? lengthSampler(w.output_distribution, spec.baseDir) : client.lengths.output,
        ),
      );
    }
    windows.push(...cursors);
    if (cursors.length === 0) return;
    const sequential = cursors.every((w, k) => k === 0 || w.start >= cursors[k - 1].end);
    if (sequential) {
      queues.set(ci, cursors.slice(1));
      cursors[0].begin(rng);
      first.push(cursors[0]);
      return;
    }
    const single = c.reasoning?.multi_turn?.single_session === true;
    const cur = rng.clone();
    for (const w of cursors) {
      const start = cur.clone();
      // A dry run moves `cur` past this window's gaps, lengths and tokens, to where the next window starts.
      w.begin(cur);
      for (let t = w.nextArrival(); t !== undefined; t = single ? undefined : w.nextArrival()) dry(cur, w, c, t);
      w.begin(start);
      first.push(w);
    }
  });
  return { windows, queues, first };
}
