import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `word` when it is close enough to be a likely typo: at most a third
 * of the word's letters differ (at least 2 allowed), ignoring case and `-` versus `_`.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const normal = (text: string): string => text.toLowerCase().replaceAll('-', '_');
  const allowed = Math.max(2, Math.floor(word.length / 3));
  let best: { candidate: string; cost: number } | undefined;
  for (const candidate of candidates) {
    const cost = distance(normal(word), normal(candidate));
    if (cost <= allowed && (best === undefined || cost < best.cost)) best = { candidate, cost };
  }
  return best?.candidate;
}
