import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { detectTraceFormat } from '@blis/workload';
import { traceV2Pair } from '@blis/workload/internal';
import type { SweepTask } from '../sweep-task.js';

/** A file a task reads, shipped through Redis so a worker on another machine needs no copy of it. */
export interface ShippedFile {
  /** Where the path sits in the task: `routingModule`, or a dot path into its config. */
  field: ShippedField;
  sha256: string;
  /** The file's own name, kept so that readers that look at extensions see the same one. */
  name: string;
}

/** What a job carries: the task, and the files whose paths the worker swaps for its local copies. */
export interface QueuedTask {
  task: SweepTask;
  files: ShippedFile[];
}

/** The task fields that name files (every path the simulator or the runner opens). */
export type ShippedField = 'routingModule' | 'workload.path' | 'workload.dataPath' | 'modelConfigPath' | 'hardwareConfigPath';

type Json = Record<string, unknown>;

let partialCount = 0;

function readField(task: SweepTask, field: ShippedField): unknown {
  if (field === 'routingModule') return task.routingModule;
  const config = task.config as Json;
  if (field.startsWith('workload.')) return (config.workload as Json | undefined)?.[field.slice('workload.'.length)];
  return config[field];
}

function writeField(task: SweepTask, field: ShippedField, value: string): void {
  if (field === 'routingModule') task.routingModule = value;
  else if (field.startsWith('workload.')) ((task.config as Json).workload as Json)[field.slice('workload.'.length)] = value;
  else (task.config as Json)[field] = value;
}

/**
 * Turns a task into a job: every file it names is read here, once per distinct content, into
 * `contents` (keyed by sha256), and the job lists which field holds which file. A TraceV2
 * header whose data file is implied by its name gets that data file named, since on the worker
 * the two copies no longer sit side by side; a model folder ships its `config.json`.
 */
export function shipTask(task: SweepTask, contents: Map<string, Buffer>): QueuedTask {
  const t = structuredClone(task);
  const w = (t.config as Json).workload as Json | undefined;
  if (w?.kind === 'trace' && typeof w.path === 'string' && w.dataPath === undefined && (w.format ?? detectTraceFormat(w.path)) === 'tracev2') {
    const pair = traceV2Pair(w.path);
    w.path = pair.header;
    w.dataPath = pair.csv;
  }
  const model = (t.config as Json).modelConfigPath;
  if (typeof model === 'string' && existsSync(model) && statSync(model).isDirectory()) (t.config as Json).modelConfigPath = join(model, 'config.json');
  const files: ShippedFile[] = [];
  for (const field of ['routingModule', 'workload.path', 'workload.dataPath', 'modelConfigPath', 'hardwareConfigPath'] as const) {
    const path = readField(t, field);
    if (typeof path !== 'string') continue;
    if (field === 'workload.path' && w?.kind !== 'trace' && w?.kind !== 'spec') continue;
    const bytes = readFileSync(path);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    contents.set(sha256, bytes);
    files.push({ field, sha256, name: basename(path) });
  }
  return { task: t, files };
}

/**
 * The task a worker runs: each shipped file written once under `dir/<sha256>/<name>` (fetched
 * with `fetch` when this machine has not seen it yet) and its path put in place of the
 * coordinator's.
 */
export async function localTask(job: QueuedTask, dir: string, fetch: (sha256: string) => Promise<Buffer | null>): Promise<SweepTask> {
  const task = structuredClone(job.task);
  for (const f of job.files) {
    const folder = join(dir, f.sha256);
    const path = join(folder, f.name);
    if (!existsSync(path)) {
      const bytes = await fetch(f.sha256);
      if (bytes === null) throw new Error(`shipped file ${f.name} (sha256 ${f.sha256.slice(0, 12)}) is not in Redis: was the sweep cleaned up while it ran?`);
      mkdirSync(folder, { recursive: true });
      // Jobs run concurrently: a second job fetching the same file must not truncate it under a
      // simulation already reading it, so the copy appears whole, by rename.
      const partial = `${path}.${process.pid}.${++partialCount}`;
      writeFileSync(partial, bytes);
      renameSync(partial, path);
    }
    writeField(task, f.field, path);
  }
  return task;
}
