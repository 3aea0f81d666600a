import { AureusError } from '../model/errors.js';

/** What makes the Action's step fail; a verdict outside this list is reported but passes. */
export type FailureCause = 'findings' | 'budget' | 'incomplete';
export type AnnotationMode = 'checks' | 'log' | 'off';
/**
 * check: judge a change (the default); implement, post-plan and publish: the builder's jobs; learn:
 * open `aureus learn`'s proposal as a pull request.
 */
export type ActionMode = 'check' | 'implement' | 'publish' | 'post-plan' | 'learn';

/** The Action's inputs (action.yml), typed and checked once. */
export interface ActionSettings {
  readonly mode: ActionMode;
  readonly token: string;
  readonly policyPath: string;
  readonly comment: boolean;
  readonly annotations: AnnotationMode;
  /** Where to write SARIF for github/codeql-action/upload-sarif; null: none. */
  readonly sarifFile: string | null;
  readonly failOn: ReadonlySet<FailureCause>;
  readonly sharedLedger: boolean;
  /** workflow_dispatch: the revisions to compare. */
  readonly base: string | null;
  readonly head: string | null;
  readonly workingDirectory: string;
  readonly checkName: string;
  /** implement: where the run's bundle and report go; post-plan, publish: where they were downloaded. */
  readonly outputDir: string;
}

const FAILURE_CAUSES: readonly FailureCause[] = ['findings', 'budget', 'incomplete'];
const ANNOTATION_MODES: readonly AnnotationMode[] = ['checks', 'log', 'off'];
const MODES: readonly ActionMode[] = ['check', 'implement', 'publish', 'post-plan', 'learn'];

/** `INPUT_<NAME>` as the runner sets it: spaces to `_`, upper case (as @actions/core reads it). */
export function inputOf(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

export function readActionSettings(env: NodeJS.ProcessEnv): ActionSettings {
  const input = (name: string) => inputOf(env, name);
  const token = input('github-token');
  return {
    mode: oneOf(input('mode') || 'check', MODES, 'mode'),
    token,
    policyPath: repositoryPath(input('policy') || '.aureus/policy.yaml', 'policy'),
    comment: booleanInput(input('comment'), 'comment', true),
    annotations: oneOf(input('annotations') || 'checks', ANNOTATION_MODES, 'annotations'),
    sarifFile: input('sarif-file') === '' ? null : input('sarif-file'),
    failOn: failOnOf(input('fail-on')),
    sharedLedger: booleanInput(input('shared-ledger'), 'shared-ledger', true),
    base: input('base') || null,
    head: input('head') || null,
    workingDirectory: input('working-directory') || '.',
    checkName: input('check-name') || 'AUREUS',
    outputDir: input('output-dir') || 'aureus-run',
  };
}

function booleanInput(value: string, name: string, fallback: boolean): boolean {
  if (value === '') return fallback;
  // The YAML 1.2 core schema's booleans, as @actions/core's getBooleanInput accepts them.
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new AureusError(
    `the input ${name} is ${JSON.stringify(value)}, not a boolean.`,
    `set ${name}: true or ${name}: false.`,
  );
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined)
    throw new AureusError(
      `the input ${name} is ${JSON.stringify(value)}.`,
      `use one of ${allowed.join(', ')}.`,
    );
  return found;
}

function failOnOf(value: string): ReadonlySet<FailureCause> {
  if (value === '') return new Set(FAILURE_CAUSES);
  if (value === 'none') return new Set();
  const causes = value
    .split(/[\s,]+/)
    .filter((word) => word !== '')
    .map((word) => oneOf(word, FAILURE_CAUSES, 'fail-on'));
  return new Set(causes);
}

/** A path inside the repository: relative, no `..`, so an input cannot point outside it. */
function repositoryPath(value: string, name: string): string {
  const parts = value.split('/');
  if (value.startsWith('/') || parts.includes('..') || parts.includes('') || value.includes('\\'))
    throw new AureusError(
      `the input ${name} is ${JSON.stringify(value)}, not a path inside the repository.`,
      `give a relative path such as .aureus/policy.yaml.`,
    );
  return value;
}
