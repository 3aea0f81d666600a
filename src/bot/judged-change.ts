import type { RepositoryCoordinates } from '../github/repository-coordinates.js';

/** What a check run judges: a pull request, or a commit range (a merge queue's group). */
export type JudgedChange =
  | { readonly kind: 'pull'; readonly number: number }
  | { readonly kind: 'range'; readonly baseSha: string };

/** A repository as the App meets it in payloads: its ledger is filed by the numeric id. */
export interface AppRepository extends RepositoryCoordinates {
  readonly id: number;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The check run's `external_id`: what it judged, so that a re-run request (which only names
 * the check run) judges the same thing again.
 */
export function externalIdOf(judged: JudgedChange): string {
  return judged.kind === 'pull' ? `pull:${judged.number}` : `range:${judged.baseSha}`;
}

/** The change an `external_id` names, or undefined when it is not one the App wrote. */
export function judgedOfExternalId(externalId: string | null): JudgedChange | undefined {
  const pull = /^pull:([1-9][0-9]{0,9})$/.exec(externalId ?? '')?.[1];
  if (pull !== undefined) return { kind: 'pull', number: Number(pull) };
  const base = /^range:(.+)$/.exec(externalId ?? '')?.[1];
  return base !== undefined && SHA.test(base) ? { kind: 'range', baseSha: base } : undefined;
}
