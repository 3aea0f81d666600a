import { join, relative } from 'node:path';
import { localCacheDir } from '../memory/cache-dir.js';
import { readCachedPolicy } from '../memory/policy-cache.js';
import { builtInPolicy, parsePolicyText, readPolicyFile } from '../memory/policy-file.js';
import type { Change } from '../model/change.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { formatPolicyProblem, PolicyError } from '../policy/policy-problem.js';
import { gitRepositorySource } from '../scan/git-repository-source.js';
import type { RepositorySource } from '../scan/repository-source.js';
import { changedBaseline } from './baseline-at-commit.js';

/** Where the policy lives in a repository unless a workflow names another path. */
export const POLICY_PATH = '.aureus/policy.yaml';
const SYMLINK_MODE = '120000';

export interface JudgingPolicy {
  readonly policy: Policy;
  /** `.aureus/policy.yaml@<sha>`, a file the user named, or `built-in`. */
  readonly source: string;
  /** The change repairs a broken committed policy and is judged by its own (local checks only). */
  readonly repairs?: true;
}

/**
 * The policy that judges a change: the one committed at its base, read from git objects (never
 * the working tree, which the change itself may have edited), or a file the user names.
 * A broken base policy is an error (exit 2), never a fallback to the defaults.
 */
export async function basePolicy(
  root: string,
  baseSha: string | null,
  options: {
    readonly policyFile?: string | undefined;
    /** The policy's path inside the repository; `.aureus/policy.yaml` by default. */
    readonly policyPath?: string | undefined;
    readonly cwd: string;
  },
): Promise<JudgingPolicy> {
  const policyPath = options.policyPath ?? POLICY_PATH;
  // The YAML parser and the schema validator load only when a policy has to be parsed: a hook
  // run judged by an unchanged policy reads its earlier parse from the cache instead.
  if (options.policyFile !== undefined) {
    const shown = relative(options.cwd, options.policyFile) || options.policyFile;
    const policy = await readPolicyFile(options.policyFile, shown, true, localCacheDir(root));
    if (policy === undefined)
      throw new AureusError(`no policy file at ${shown}.`, 'check the path.');
    return { policy, source: shown };
  }
  if (baseSha === null) {
    // No commit yet: nothing was ever agreed, so the file on disk (if any) is what the team has.
    const caches = localCacheDir(root);
    const onDisk = await readPolicyFile(join(root, policyPath), policyPath, false, caches);
    return onDisk === undefined
      ? { policy: await builtInPolicy(caches), source: 'built-in' }
      : { policy: onDisk, source: policyPath };
  }
  // Listed without sizes, as the check lists its base (check-change.ts): one listing for both.
  return committedPolicy(gitRepositorySource(root, { listSizes: false }), baseSha, policyPath);
}

/**
 * The policy committed at `commit`, read through any source (a clone, or the GitHub API with no
 * checkout): the built-in default when there is none, a PolicyError when it is a link, not
 * UTF-8, or does not validate. Parses are cached by the file's blob id in the source's caches.
 */
export async function committedPolicy(
  source: RepositorySource,
  commit: string,
  policyPath: string = POLICY_PATH,
): Promise<JudgingPolicy> {
  const entry = (await source.listFiles(commit)).find((file) => file.path === policyPath);
  const caches = source.cacheDir;
  if (entry === undefined) return { policy: await builtInPolicy(caches), source: 'built-in' };
  const shown = `${policyPath}@${commit.slice(0, 12)}`;
  if (entry.mode === SYMLINK_MODE) {
    throw new PolicyError([
      {
        file: shown,
        line: 1,
        column: 1,
        message:
          'the policy path is a symlink (mode 120000); AUREUS never follows links for its policy.',
        hint: 'commit the policy as a regular file in place of the link.',
      },
    ]);
  }
  const cached = await readCachedPolicy(caches, entry.blobSha);
  if (cached !== undefined) return { policy: cached, source: shown };
  const [read] = await source.readBlobs([entry]);
  const version = read?.version;
  if (version?.kind !== 'text' || version.text === undefined || version.validUtf8 === false) {
    const kind = version?.kind ?? 'unreadable';
    // Git throws for a missing blob; the API says why it has none (`unreadable: GitHub answered 404 …`).
    const why = read?.problem === undefined ? kind : `${kind}: ${read.problem}`;
    throw new PolicyError([
      {
        file: shown,
        line: 1,
        column: 1,
        message: `the committed policy is not UTF-8 text (${why}).`,
        hint: `commit ${policyPath} as a UTF-8 YAML file.`,
      },
    ]);
  }
  const policy = await parsePolicyText(version.text, shown, { dir: caches, key: entry.blobSha });
  return { policy, source: shown };
}

/** What a change does to the policy file: the settings it alters, and why its new file is unusable. */
export interface PolicyEdit {
  /** Settings changed against the judging policy: reported for approval, never applied. */
  readonly changes: string[];
  /**
   * The changes that loosen the gate (policy-direction.ts): on a pull request they block until
   * a maintainer approves them. Removing or moving the file counts as loosening.
   */
  readonly loosens: string[];
  /** `file:line:col: message` for a new policy that does not validate: it blocks the change. */
  readonly problems: string[];
}

/**
 * What the change does to .aureus/policy.yaml, and what its edit of .aureus/baseline.json gives
 * away (changedBaseline). The new file is validated by the same loader as
 * a committed one, so a broken policy is refused when it is committed, not when the next change
 * finds it at its base and can no longer be judged.
 */
export async function changedPolicy(
  change: Change,
  judging: Policy,
  policyPath: string = POLICY_PATH,
): Promise<PolicyEdit> {
  const edit = await changedPolicyFile(change, judging, policyPath);
  // The baseline's figures are settings of the gate too: raising them is approved like a policy.
  const baseline = changedBaseline(change);
  if (baseline.length === 0) return edit;
  return {
    changes: [...edit.changes, ...baseline],
    loosens: [...edit.loosens, ...baseline],
    problems: edit.problems,
  };
}

async function changedPolicyFile(
  change: Change,
  judging: Policy,
  policyPath: string,
): Promise<PolicyEdit> {
  const file = change.files.find(
    (candidate) => candidate.path === policyPath || candidate.oldPath === policyPath,
  );
  if (file === undefined) return { changes: [], loosens: [], problems: [] };
  if (file.head === undefined || file.path !== policyPath) {
    // The next change would be judged by the built-in defaults (or none): fail closed.
    const removed = `the change removes or moves ${policyPath}.`;
    return { changes: [removed], loosens: [removed], problems: [] };
  }
  if (file.head.text === undefined) {
    const problem = `${policyPath}:1:1: the new policy is not a text file (${file.head.kind}). To resolve, commit ${policyPath} as a UTF-8 YAML file.`;
    return { changes: [`the change edits ${policyPath}.`], loosens: [], problems: [problem] };
  }
  const { parsePolicy } = await import('../policy/parse-policy.js');
  const parsed = parsePolicy(file.head.text, policyPath);
  if (!parsed.ok) {
    return {
      changes: [`the change edits ${policyPath}.`],
      loosens: [],
      problems: parsed.problems.map(formatPolicyProblem),
    };
  }
  const { classifyPolicyChange, diffPolicies } = await import('../policy/policy-direction.js');
  const changes = diffPolicies(judging, parsed.policy);
  return {
    changes:
      changes.length > 0 ? changes : [`the change edits ${policyPath} (comments or layout only).`],
    loosens: classifyPolicyChange(judging, parsed.policy).loosens,
    problems: [],
  };
}

/**
 * The way out of a broken committed policy, for a local check: a change that repairs the file is
 * judged by its repaired policy (its settings against the defaults are still reported); any other
 * change is refused with the problems and that way out. Locally a policy change is a warning at
 * most, so this gives nothing away; the server side keeps a broken base policy incomplete.
 */
export async function repairOrRefuse(
  broken: PolicyError,
  change: Change,
  policyPath: string = POLICY_PATH,
): Promise<JudgingPolicy> {
  const file = change.files.find((candidate) => candidate.path === policyPath);
  if (file?.head?.text !== undefined) {
    const { parsePolicy } = await import('../policy/parse-policy.js');
    const parsed = parsePolicy(file.head.text, policyPath);
    if (parsed.ok)
      return {
        policy: parsed.policy,
        source: `${policyPath} (repaired by the change)`,
        repairs: true,
      };
  }
  throw new AureusError(
    broken.message,
    `fix ${policyPath} and commit it: a commit whose ${policyPath} validates is judged by it.`,
  );
}
