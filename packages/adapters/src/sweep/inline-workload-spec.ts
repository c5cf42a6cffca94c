import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { relativeToCwd } from './sweep-spec-load.js';

type Json = Record<string, unknown>;

/**
 * A `{kind: 'spec', path}` workload with the spec file read into `spec`, so parameters can edit
 * it (`workload.aggregate_rate`, `workload.spec.clients.0.rate_fraction`). Empirical length
 * files named relative to the spec file are re-anchored, since an inline spec has no folder.
 * The caller has validated the file (loadWorkloadSpec) and so knows it parses.
 */
export function inlineWorkloadSpec(w: Json): Json {
  const path = w.path as string;
  const spec = parse(readFileSync(path, 'utf8')) as Json;
  const dir = dirname(path);
  const anchor = (d: unknown) => {
    const params = (d as Json | undefined)?.params as Json | undefined;
    if ((d as Json | undefined)?.type === 'empirical' && typeof params?.file === 'string' && !isAbsolute(params.file)) params.file = relativeToCwd(resolve(dir, params.file));
  };
  for (const c of (spec.clients as Json[] | undefined) ?? []) {
    anchor(c.input_distribution);
    anchor(c.output_distribution);
    for (const win of ((c.lifecycle as Json | undefined)?.windows as Json[] | undefined) ?? []) {
      anchor(win.input_distribution);
      anchor(win.output_distribution);
    }
  }
  const { path: _path, ...rest } = w;
  return { ...rest, spec };
}
