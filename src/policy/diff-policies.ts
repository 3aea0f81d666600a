import { isRecord } from '../model/json.js';
import type { Policy } from '../model/policy.js';

/**
 * The settings two policies disagree on, as `path: before → after` lines, for the
 * "policy change — needs maintainer approval" notice. Compares effective policies (defaults
 * filled), so moving a default into the file is not a change.
 */
export function diffPolicies(before: Policy, after: Policy): string[] {
  const changes: string[] = [];
  walk(before, after, '', changes);
  return changes;
}

function walk(before: unknown, after: unknown, path: string, changes: string[]): void {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys)
      walk(before[key], after[key], path === '' ? key : `${path}.${key}`, changes);
    return;
  }
  const was = JSON.stringify(before);
  const now = JSON.stringify(after);
  if (was !== now) changes.push(`${path}: ${was ?? 'unset'} → ${now ?? 'unset'}`);
}
