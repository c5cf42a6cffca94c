import type { ReportCalibration } from '@blis/report';
import * as z from 'zod';
import { checkSchema, readJsonObject, runArgument } from './result-file.js';

/** What `blis report --calibration` reads of a `blis calibrate --report` file; the rest passes through. */
const num = z.number();
const count = z.number().int().nonnegative();

const MetricSchema = z.looseObject({
  count,
  workload_level: z.record(z.string(), num),
  request_level: z.looseObject({ mape: num, pearson_r: num, bias_direction: z.string(), quality: z.string() }),
});

const BreakdownSchema = z.looseObject({
  count,
  ttft_mape: num,
  e2e_mape: num,
  ttft_real_mean: num,
  ttft_sim_mean: num,
  e2e_real_mean: num,
  e2e_sim_mean: num,
});

const CalibrationFileSchema = z.looseObject({
  trace_info: z.looseObject({ num_requests: count, warm_up_excluded: count, matched_pairs: count }),
  metrics: z.looseObject({ ttft: MetricSchema.optional(), e2e: MetricSchema.optional(), itl: MetricSchema.optional() }),
  hit_rate: z.looseObject({ real_hit_rate: num, sim_hit_rate: num, within: z.boolean() }).optional(),
  breakdowns: z.looseObject({ slo_class: z.record(z.string(), BreakdownSchema).optional(), model: z.record(z.string(), BreakdownSchema).optional() }).optional(),
});

/** Reads and validates one `--calibration` argument (a path, or name=path). */
export function readCalibrationFile(arg: string): ReportCalibration {
  const { name, path } = runArgument(arg);
  const what = 'a blis calibrate report';
  const value = readJsonObject(path, '--calibration', what, 'calibration report JSON (blis calibrate --report)');
  return { name, report: checkSchema(CalibrationFileSchema, value, path, what) };
}
