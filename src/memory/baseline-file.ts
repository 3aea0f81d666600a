import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AureusError } from '../model/errors.js';
import type { Finding, RecordedFinding } from '../model/finding.js';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errno-code.js';

export const BASELINE_PATH = '.aureus/baseline.json';

/** A finding known when the baseline was taken: it is reported, and blocks only if it grows. */
export type BaselineEntry = RecordedFinding;

/**
 * The committed baseline of a legacy repository (`aureus baseline`): the findings it already
 * had, so that `aureus check --all` blocks only new ones. Missing file: no baseline. A file that
 * does not read is an error, never an empty baseline (that would block everything silently, or
 * worse, hide that someone broke it).
 */
export async function readBaseline(root: string): Promise<BaselineEntry[] | undefined> {
  let text: string;
  try {
    text = await readFile(join(root, BASELINE_PATH), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  return parseBaseline(text, BASELINE_PATH);
}

/**
 * The entries of a baseline file's text; `shown` names it in the error. A text that is not a
 * baseline AUREUS wrote is an error, never an empty baseline.
 */
export function parseBaseline(text: string, shown: string): BaselineEntry[] {
  const broken = new AureusError(
    `${shown} is not a baseline AUREUS wrote.`,
    'run `aureus baseline` to write it again, and commit it.',
  );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw broken;
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    !('version' in value) ||
    value.version !== 1 ||
    !('findings' in value) ||
    !Array.isArray(value.findings)
  ) {
    throw broken;
  }
  const entries: unknown[] = value.findings;
  if (!entries.every(isEntry)) throw broken;
  return entries.filter(isEntry);
}

/** Writes the findings as the new baseline (sorted, so it diffs well in review). */
export async function writeBaseline(root: string, findings: readonly Finding[]): Promise<number> {
  const entries: BaselineEntry[] = findings
    .map((finding) => ({
      fingerprint: finding.fingerprint,
      ruleId: finding.ruleId,
      path: finding.location?.path ?? null,
      symbol: finding.symbol,
      measured: finding.measured,
    }))
    .sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  await writeFileAtomic(
    join(root, BASELINE_PATH),
    `${JSON.stringify({ version: 1, findings: entries }, null, 2)}\n`,
  );
  return entries.length;
}

function isEntry(value: unknown): value is BaselineEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry: Record<string, unknown> = { ...value };
  return (
    typeof entry.fingerprint === 'string' &&
    typeof entry.ruleId === 'string' &&
    (entry.path === null || typeof entry.path === 'string') &&
    typeof entry.symbol === 'string' &&
    (entry.measured === null || typeof entry.measured === 'number')
  );
}
