import { parseYamlInput, readYamlText, yamlLineOf, yamlNumberSource } from '@blis/workload/internal';
import { formatParamPath } from '@blis/policies/internal';
import type { InputIssue } from '@blis/workload';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

/** A parsed YAML file that can say on which line a path of keys lives. */
export interface YamlFile {
  path: string;
  /** The file's text, as read. */
  text: string;
  value: unknown;
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** A number as the file wrote it, when YAML could not hold it exactly (beyond 2^53, or 1e400); else undefined. */
  numberText(path: readonly (string | number)[]): string | undefined;
}

/** A place in a file (`file`, `line`, `field` as the packages' issues name it) as a UsageIssue's `where`. */
export function whereText(at: { file: string; line?: number; field?: string }): string {
  return `${at.file}${at.line !== undefined ? `:${at.line}` : ''}${at.field !== undefined ? ` ${at.field}` : ''}`;
}

/** A file problem reported by a package (`InputIssue` and its kin) as the CLI's UsageIssue. */
export function usageIssueOf(i: InputIssue): UsageIssue {
  return { where: whereText(i), expected: i.expected, found: i.found };
}

/** `file.yaml:7 kv_offload.block_size`: the file, the key's line (or its nearest parent's) and the key. */
export function whereIn(file: YamlFile, path: readonly (string | number)[]): string {
  return whereText({ file: file.path, line: file.lineOf(path), field: formatParamPath(path, '') });
}

/** Reads a YAML file's text within the YAML input limits (size); problems become UsageErrors naming the file. */
export function readYamlSource(path: string, what: string): string {
  const read = readYamlText(path, `${what} file`);
  if (!read.ok) throw new UsageError(read.issues.map(usageIssueOf));
  return read.text;
}

/**
 * Reads and parses a YAML file within the YAML input limits (size, nesting, aliases); syntax
 * errors become UsageErrors naming file and line.
 */
export function readYamlFile(path: string, what: string): YamlFile {
  const text = readYamlSource(path, what);
  const parsed = parseYamlInput(text, path);
  if (!parsed.ok) throw new UsageError(parsed.issues.map(usageIssueOf));
  const yaml = parsed.yaml;
  return {
    path,
    text,
    value: yaml.value,
    lineOf: (p) => yamlLineOf(yaml, p, false),
    numberText: (p) => yamlNumberSource(yaml, p),
  };
}
