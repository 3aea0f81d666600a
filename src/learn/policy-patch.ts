import { Document, parseDocument, visit } from 'yaml';
import { unifiedDiff } from '../init/unified-diff.js';
import { AureusError } from '../model/errors.js';
import { CURRENT_POLICY_VERSION } from '../model/policy.js';
import type { PolicyEdit } from './policy-edit.js';

/**
 * The policy file with the edits made, through the `yaml` Document API so that every comment
 * and the layout the maintainers chose stay as they were; a repository without a policy file
 * gets one holding the version and the edits alone.
 */
export function patchPolicyText(text: string | null, edits: readonly PolicyEdit[]): string {
  const document =
    text === null
      ? new Document({ version: CURRENT_POLICY_VERSION })
      : parseDocument(text, { schema: 'core' });
  // An edit through an alias (`reflection: *strict`) would change every place that shares the
  // anchored value while the diff showed one line, or fail on the alias node: refused, said.
  let aliased = false;
  visit(document, {
    Alias() {
      aliased = true;
      return visit.BREAK;
    },
  });
  if (aliased && edits.length > 0)
    throw new AureusError(
      'the policy uses YAML aliases (*name), so one edit could change several settings while the proposal shows one line.',
      'write the proposal into the policy by hand from its evidence (aureus learn --format json), or expand the aliases in .aureus/policy.yaml first.',
    );
  for (const edit of edits) document.setIn(edit.path, edit.to);
  // `[a, b]` or `[ a, b ]`: written back as the file writes its flow lists, so the diff shows
  // the edits alone, not every list the printer would pad otherwise.
  const padded = (text?.match(/[[{] [^\s\]}]/g) ?? []).length;
  const tight = (text?.match(/[[{][^\s\]}]/g) ?? []).length;
  return document.toString({ flowCollectionPadding: padded > tight });
}

/**
 * The proposal as a unified diff of the policy file that `git apply` takes, `shown` naming it
 * on both sides (a file the repository lacks comes from /dev/null).
 */
export function policyDiff(shown: string, before: string | null, after: string): string {
  const from = before === null ? '/dev/null' : `a/${shown}`;
  return unifiedDiff(before ?? '', after, [from, `b/${shown}`]);
}
