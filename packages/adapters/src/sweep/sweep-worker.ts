// The file tinypool loads in each worker thread: one task in, one row out.
import { type SweepRow, type SweepTask, runSweepTask } from './sweep-task.js';

export default function run(task: SweepTask): Promise<SweepRow> {
  return runSweepTask(task);
}
