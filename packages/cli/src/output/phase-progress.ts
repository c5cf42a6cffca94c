import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { PreparePhase } from '@blis/cluster';

/** A file this large takes about a second to parse (a 2.3 MB spec of 10,000 clients: 2.7 s). */
const SLOW_FILE_BYTES = 1 << 20;
/** Building this many instances (and their KV caches) takes about a second. */
const SLOW_INSTANCES = 1000;
/** Setting up this many clients' generators is announced with them. */
const SLOW_CLIENTS = 1000;
/** Ms between two lines on a step that reports how far it is (building instances). */
const REDRAW_MS = 1000;

/**
 * Lines on stderr naming what a run is preparing (reading a large spec or trace, building many
 * instances), under the rules of ProgressBar: only on a terminal or with BLIS_PROGRESS=1. A
 * step that blocks is announced before it starts when its input is large enough to take a
 * second, and any step reached a second or more after the command started; building instances
 * also says how far it is, once a second.
 */
export class PhaseProgress {
  private readonly started = Date.now();
  private readonly enabled: boolean;
  private lastDraw = 0;

  constructor(enabled: boolean) {
    this.enabled = enabled && (process.stderr.isTTY === true || process.env.BLIS_PROGRESS === '1');
  }

  phase(p: PreparePhase): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (p.kind === 'build-instances' && p.built > 0) {
      if (p.built === p.instances || now - this.lastDraw < REDRAW_MS || now - this.started < REDRAW_MS) return;
      this.lastDraw = now;
      process.stderr.write(`blis: building instances: ${p.built} of ${p.instances}\n`);
      return;
    }
    const line = describePhase(p, now - this.started >= 1000);
    if (line === undefined) return;
    this.lastDraw = now;
    process.stderr.write(`blis: ${line}\n`);
  }
}

/** The line announcing a step, or undefined when it is quick and not late. */
export function describePhase(p: PreparePhase, late: boolean): string | undefined {
  switch (p.kind) {
    case 'read-spec':
    case 'read-trace': {
      const bytes = fileSize(p.path);
      if (!late && (bytes === undefined || bytes < SLOW_FILE_BYTES)) return undefined;
      return `reading ${basename(p.path)}${bytes !== undefined ? ` (${(bytes / 1e6).toFixed(1)} MB)` : ''}`;
    }
    case 'generate':
      if (!late && p.clients < SLOW_CLIENTS) return undefined;
      return `generating ${p.requests !== undefined ? `${p.requests} requests from ` : 'requests from '}${p.clients} client${p.clients === 1 ? '' : 's'}`;
    case 'build-instances':
      if (!late && p.instances < SLOW_INSTANCES) return undefined;
      return `building ${p.instances} instance${p.instances === 1 ? '' : 's'}`;
  }
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
