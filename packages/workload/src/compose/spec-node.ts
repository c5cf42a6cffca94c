import { type GoYamlNode, goSortedEntries } from '../go-yaml/index.js';

// BLIS's WorkloadSpec structs (sim/workload/spec.go) as yaml.v3 writes them: fields in declared
// order; `always` fields written even when missing (as Go's zero value), `omitempty` ones left out
// when zero or empty, pointer (`nil`) ones left out only when absent.

type Omit = 'always' | 'omitempty' | 'nil';
type Kind = 'str' | 'float' | 'int' | 'bool' | 'floatMap' | StructName | { list: StructName };
type StructName = 'client' | 'arrival' | 'dist' | 'network' | 'lifecycle' | 'window' | 'multimodal' | 'reasoning' | 'multiTurn';
type Field = readonly [key: string, kind: Kind, omit: Omit];

const DIST_ALWAYS = (key: string): Field => [key, 'dist', 'always'];

const STRUCTS: Readonly<Record<StructName, readonly Field[]>> = {
  client: [
    ['id', 'str', 'always'],
    ['tenant_id', 'str', 'always'],
    ['slo_class', 'str', 'always'],
    ['model', 'str', 'omitempty'],
    ['adapter', 'str', 'omitempty'],
    ['rate_fraction', 'float', 'always'],
    ['concurrency', 'int', 'omitempty'],
    ['think_time_us', 'int', 'omitempty'],
    ['arrival', 'arrival', 'always'],
    DIST_ALWAYS('input_distribution'),
    DIST_ALWAYS('output_distribution'),
    ['prefix_group', 'str', 'omitempty'],
    ['prefix_length', 'int', 'omitempty'],
    ['streaming', 'bool', 'always'],
    ['network', 'network', 'nil'],
    ['lifecycle', 'lifecycle', 'nil'],
    ['multimodal', 'multimodal', 'nil'],
    ['reasoning', 'reasoning', 'nil'],
    ['timeout', 'int', 'nil'],
    ['slo_target_us', 'int', 'nil'],
    ['closed_loop', 'bool', 'nil'],
  ],
  arrival: [
    ['process', 'str', 'always'],
    ['cv', 'float', 'nil'],
    ['shape', 'float', 'nil'],
    ['scale', 'float', 'nil'],
  ],
  dist: [
    ['type', 'str', 'always'],
    ['params', 'floatMap', 'omitempty'],
    ['file', 'str', 'omitempty'],
  ],
  network: [
    ['rtt_ms', 'float', 'always'],
    ['bandwidth_mbps', 'float', 'omitempty'],
  ],
  lifecycle: [['windows', { list: 'window' }, 'always']],
  window: [
    ['start_us', 'int', 'always'],
    ['end_us', 'int', 'always'],
    ['trace_rate', 'float', 'nil'],
    ['arrival', 'arrival', 'nil'],
    ['input_distribution', 'dist', 'nil'],
    ['output_distribution', 'dist', 'nil'],
  ],
  multimodal: ['text', 'image', 'image_count', 'audio', 'audio_count', 'video', 'video_count'].map((m) => DIST_ALWAYS(`${m}_distribution`)),
  reasoning: [DIST_ALWAYS('reason_ratio_distribution'), ['multi_turn', 'multiTurn', 'nil']],
  multiTurn: [
    ['max_rounds', 'int', 'always'],
    ['think_time_us', 'int', 'always'],
    ['context_growth', 'str', 'always'],
    ['single_session', 'bool', 'omitempty'],
  ],
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value of a key no BLIS struct has (one of our extensions), written as it came. */
export function plainNode(v: unknown): GoYamlNode {
  if (typeof v === 'string') return { kind: 'str', value: v };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? { kind: 'int', value: v } : { kind: 'float', value: v };
  if (Array.isArray(v)) return { kind: 'seq', items: v.map(plainNode) };
  if (isRecord(v)) return { kind: 'map', entries: Object.entries(v).map(([k, x]) => [k, plainNode(x)]) };
  return { kind: 'str', value: '' };
}

function isZero(kind: Kind, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (kind === 'str') return v === '';
  if (kind === 'float' || kind === 'int') return v === 0;
  if (kind === 'bool') return v === false;
  if (kind === 'floatMap') return isRecord(v) && Object.keys(v).length === 0;
  return false;
}

function valueNode(kind: Kind, v: unknown): GoYamlNode {
  if (typeof kind === 'object') return { kind: 'seq', items: (Array.isArray(v) ? v : []).map((x) => structNode(kind.list, x)) };
  switch (kind) {
    case 'str':
      return typeof v === 'string' ? { kind: 'str', value: v } : v === undefined || v === null ? { kind: 'str', value: '' } : plainNode(v);
    case 'float':
      return typeof v === 'number' ? { kind: 'float', value: v } : v === undefined || v === null ? { kind: 'float', value: 0 } : plainNode(v);
    case 'int':
      return typeof v === 'number' ? { kind: 'int', value: v } : v === undefined || v === null ? { kind: 'int', value: 0 } : plainNode(v);
    case 'bool':
      return typeof v === 'boolean' ? { kind: 'bool', value: v } : { kind: 'bool', value: false };
    case 'floatMap':
      // A Go map[string]float64, keys in yaml.v3's order; a value that is no number is one of ours.
      return {
        kind: 'map',
        entries: goSortedEntries(Object.entries(isRecord(v) ? v : {})).map(([k, x]): [string, GoYamlNode] => [k, typeof x === 'number' ? { kind: 'float', value: x } : plainNode(x)]),
      };
    default:
      return structNode(kind, v);
  }
}

/** One struct: BLIS's fields in order, then any key of ours BLIS does not have, as given. */
export function structNode(name: StructName, v: unknown): GoYamlNode {
  const raw = isRecord(v) ? v : {};
  const fields = STRUCTS[name];
  const entries: [string, GoYamlNode][] = [];
  for (const [key, kind, omit] of fields) {
    const value = raw[key];
    if (omit === 'nil' && (value === undefined || value === null)) continue;
    if (omit === 'omitempty' && isZero(kind, value)) continue;
    entries.push([key, valueNode(kind, value)]);
  }
  const known = new Set(fields.map((f) => f[0]));
  for (const [key, value] of Object.entries(raw)) if (!known.has(key)) entries.push([key, plainNode(value)]);
  return { kind: 'map', entries };
}

/** A client spec as BLIS writes it. */
export function clientNode(client: unknown): GoYamlNode {
  return structNode('client', client);
}
