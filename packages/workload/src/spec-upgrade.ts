/** BLIS's v1 SLO class names and the v2 tiers it reads them as (sim/workload/spec.go). */
const V1_SLO_CLASSES: Readonly<Record<string, string>> = { realtime: 'critical', interactive: 'standard' };

/**
 * A v1 spec (`version: "1"`, or none) upgraded as BLIS's UpgradeV1ToV2 upgrades it: the version
 * becomes "2" and the v1 SLO class names `realtime` and `interactive` become `critical` and
 * `standard`; nothing else changes, so the spec generates the same requests. `notes` says what
 * was done, for stderr. Anything else (a v2 spec, an `inference_perf` section, not a mapping) is
 * returned as it is, with no notes.
 */
export function upgradeV1Spec(raw: unknown): { raw: unknown; notes: string[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || 'inference_perf' in raw) return { raw, notes: [] };
  const spec = raw as Record<string, unknown>;
  const v = spec.version;
  if (v !== undefined && v !== null && v !== '1' && v !== 1 && v !== '') return { raw, notes: [] };
  const notes = [`workload spec version ${v === undefined || v === null || v === '' ? '(none)' : JSON.stringify(String(v))} read as version 2, as BLIS upgrades it (the same requests)`];
  const clients = Array.isArray(spec.clients)
    ? spec.clients.map((c: unknown, i) => {
        if (c === null || typeof c !== 'object') return c;
        const cls = (c as Record<string, unknown>).slo_class;
        const v2 = typeof cls === 'string' ? V1_SLO_CLASSES[cls] : undefined;
        if (v2 === undefined) return c;
        notes.push(`clients[${i}].slo_class "${cls}" (v1) read as "${v2}"`);
        return { ...c, slo_class: v2 };
      })
    : spec.clients;
  return { raw: { ...spec, version: '2', clients }, notes };
}
