/**
 * Where config fields that no flag set came from (a policy file's key and line), so that a
 * problem found after the config is built, a run limit inside `simulate()`, names the file and
 * not a flag the user never gave. One command builds one config at a time: buildConfig starts
 * the record afresh.
 */
const origins = new Map<string, string>();

export function resetConfigOrigins(): void {
  origins.clear();
}

/** `path` is the config path as `formatParamPath` writes it (`autoscaling.maxReplicas`). */
export function setConfigOrigin(path: string, where: string): void {
  origins.set(path, where);
}

export function configOrigin(path: string): string | undefined {
  return origins.get(path);
}
