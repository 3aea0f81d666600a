import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface WorkflowDocument {
  readonly name: string;
  readonly document: unknown;
}

/**
 * This repository's workflows and every YAML block of the README, parsed (the README's policy
 * examples come along; they have no `jobs`).
 */
export function workflowDocuments(): WorkflowDocument[] {
  const folder = join(repositoryRoot, '.github', 'workflows');
  const files = readdirSync(folder)
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => ({
      name: `.github/workflows/${file}`,
      document: parse(readFileSync(join(folder, file), 'utf8')),
    }));
  const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
  const examples = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match, index) => ({
    name: `README.md example ${index + 1}`,
    document: parse(match[1] ?? ''),
  }));
  return [...files, ...examples];
}

/** `value[key]` when it is an object (or an array), else undefined. */
export function field(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found: unknown = Reflect.get(value, key);
  return typeof found === 'object' && found !== null
    ? (found as Record<string, unknown>)
    : undefined;
}
