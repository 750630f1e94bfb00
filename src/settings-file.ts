import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';

/**
 * The settings files a variable names (identity rules, tokens): YAML (so JSON too), with YAML
 * aliases bounded (a billion-laughs document is refused, not expanded). Throws the parser's first
 * line; callers say which variable and file.
 */
export function parseSettingsDocument(text: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 }) ?? {};
  } catch (err) {
    throw new Error((err as Error).message.split('\n')[0]);
  }
}

/** Zod problems as one line, each `path: message` ('(top level)' for the root). */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
}
