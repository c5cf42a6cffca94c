import { goSortedEntries } from './go-yaml-key-order.js';

/**
 * A value as Go's yaml.v3 marshals it: what kind of Go value it was decides how it is written
 * (a float64 `1e+06`, an int `1000000`), and a struct's fields keep their declared order.
 */
export type GoYamlNode =
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, GoYamlNode])[] }
  | { readonly kind: 'seq'; readonly items: readonly GoYamlNode[] }
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean };

export const goStr = (value: string): GoYamlNode => ({ kind: 'str', value });
export const goInt = (value: number): GoYamlNode => ({ kind: 'int', value });
export const goFloat = (value: number): GoYamlNode => ({ kind: 'float', value });
export const goBool = (value: boolean): GoYamlNode => ({ kind: 'bool', value });
export const goSeq = (items: readonly GoYamlNode[]): GoYamlNode => ({ kind: 'seq', items });

/** A struct: fields in declaration order, an absent (`omitempty`) field left out by the caller. */
export const goStruct = (entries: readonly (readonly [string, GoYamlNode | undefined])[]): GoYamlNode => ({
  kind: 'map',
  entries: entries.filter((e): e is readonly [string, GoYamlNode] => e[1] !== undefined),
});

/** A Go map[string]float64, whose keys yaml.v3 sorts (a struct's fields it does not). */
export function goFloatMap(values: Readonly<Record<string, number>>): GoYamlNode {
  return { kind: 'map', entries: goSortedEntries(Object.entries(values)).map(([k, v]) => [k, goFloat(v)] as const) };
}
