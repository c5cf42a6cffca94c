import type { InputIssue } from '@blis/workload';
import { parseYamlInput, readYamlText, yamlLineOf, yamlNumberSource } from '@blis/workload/internal';
import { UsageError, type UsageIssue } from './usage-error.js';

/** A parsed YAML file that can say on which line a path of keys lives. */
export interface YamlFile {
  path: string;
  value: unknown;
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** A number as the file wrote it, when YAML could not hold it exactly (beyond 2^53, or 1e400); else undefined. */
  numberText(path: readonly (string | number)[]): string | undefined;
}

function usageIssue(i: InputIssue): UsageIssue {
  return { where: `${i.file}${i.line !== undefined ? `:${i.line}` : ''}${i.field !== undefined ? ` ${i.field}` : ''}`, expected: i.expected, found: i.found };
}

/**
 * Reads and parses a YAML file within the YAML input limits (size, nesting, aliases); syntax
 * errors become UsageErrors naming file and line.
 */
export function readYamlFile(path: string, what: string): YamlFile {
  const read = readYamlText(path, `${what} file`);
  if (!read.ok) throw new UsageError(read.issues.map(usageIssue));
  const parsed = parseYamlInput(read.text, path);
  if (!parsed.ok) throw new UsageError(parsed.issues.map(usageIssue));
  const yaml = parsed.yaml;
  return {
    path,
    value: yaml.value,
    lineOf: (p) => yamlLineOf(yaml, p, false),
    numberText: (p) => yamlNumberSource(yaml, p),
  };
}
