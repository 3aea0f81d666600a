import { randomBytes } from 'node:crypto';

/**
 * A run's id and branch. The branch `aureus/<slug>-<id>` says what the run was asked to do and
 * which run made it; the slug keeps only lowercase letters and digits, so no task text can make
 * an invalid or misleading ref name.
 */

const SLUG_WORDS = 6;
const SLUG_CHARS = 40;

export function taskSlug(task: string): string {
  const words = task
    .toLowerCase()
    .normalize('NFKD')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .slice(0, SLUG_WORDS);
  const slug = words.join('-').slice(0, SLUG_CHARS).replace(/-+$/, '');
  return slug.length > 0 ? slug : 'task';
}

export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

export function runBranch(task: string, id: string): string {
  return `aureus/${taskSlug(task)}-${id}`;
}
