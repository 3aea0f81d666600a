import { join } from 'node:path';
import { detectLanguage } from '../analysis/detect-language.js';
import { groupModules } from '../analysis/graph/policy-modules.js';
import { SYMLINK_MODE } from '../git/blob-version.js';
import { readChange } from '../git/index.js';
import type { AskModel } from '../llm/ask-model.js';
import type { FileFacts, Language } from '../model/facts.js';
import { hasEscapedBytes } from '../model/path-bytes.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import {
  findingsInOtherLanguages,
  type SimplificationFinding,
} from '../reflexion/findings-in-other-languages.js';
import { findSimplifications } from '../reflexion/pass-catalog.js';
import type { Declined, PassContext, SimplificationPass } from '../reflexion/proposal.js';
import { publicApiOf } from '../reflexion/public-api/public-api.js';
import { createFactParser, isScript } from '../scan/fact-parsers.js';
import { gitRepositorySource } from '../scan/git-repository-source.js';
import { snapshotResolutionFiles } from '../scan/snapshot-resolution-files.js';
import { type SnapshotFile, workingTreeSnapshot } from '../scan/working-tree-snapshot.js';
import { type AppliedPatches, applyPatches } from './apply-patches.js';
import { composePatches } from './compose-patches.js';
import { type ContainedFileSystem, containedFileSystem } from './contained-file-system.js';
import { loadProject, type SkippedFile } from './load-project.js';
import { modelAssistedProposals, modelPatchRefusal } from './model-assisted.js';
import { type SimplificationMetrics, simplificationMetrics } from './simplification-metrics.js';
import { createTypeErrorBaseline } from './type-errors.js';
import { type DroppedProposal, type VerifiedPatch, verifyProposal } from './verify-proposal.js';

export interface SimplifyOptions {
  /** Only the files the working tree changed (vs HEAD); else every source file. */
  readonly changedOnly: boolean;
  /** Only these repository paths (a pull request's files); overrides `changedOnly`. */
  readonly only?: ReadonlySet<string>;
  /** Write the verified patches to the working tree. */
  readonly apply: boolean;
  /** With `apply`: keep a patch only if the project's test command passes with it. */
  readonly test: boolean;
  /** The model for the model-assisted pass (simplification.model_assisted); none skips it. */
  readonly model?: AskModel | undefined;
}

export interface SimplifyResult {
  /** Files looked at for opportunities. */
  readonly scope: readonly string[];
  readonly verified: readonly VerifiedPatch[];
  readonly dropped: readonly DroppedProposal[];
  /** Verified patches that clash with one taken before them: the next run offers them again. */
  readonly deferred: readonly DroppedProposal[];
  readonly failedPasses: ReadonlyArray<{ readonly pass: string; readonly error: string }>;
  /** Candidates a pass found and left alone, with why (a generic interface, say). */
  readonly declined: readonly Declined[];
  /** Opportunities in the languages reflexion has no patches for: locations only. */
  readonly findings: readonly SimplificationFinding[];
  /** Files in scope in those languages (Python, Go, Java): looked at, never patched. */
  readonly unpatchedFiles: number;
  /** What was written (with `apply`), and what was taken back out (failing tests), with why. */
  readonly applied: AppliedPatches;
  /** The scope before and after the patches that do not overlap (applied or not). */
  readonly metrics: SimplificationMetrics;
  /**
   * Tracked sources (and tsconfig.json) not read, with why: links, FIFOs and devices where a
   * file is tracked, files over the read limit. Reflexion proposes, it does not judge: a file
   * it cannot read gets no patch, and the run says which and why rather than failing.
   */
  readonly skipped: readonly SkippedFile[];
  /** Package entries not traced to a source, whose packages are kept whole as public API. */
  readonly untracedEntries: readonly string[];
}

/**
 * `aureus simplify`: the deterministic passes over the repository's TypeScript and JavaScript,
 * every proposal verified (verify-proposal.ts), and with `apply` the verified patches written
 * one by one. Test files and ignored or generated paths are never simplified, though
 * references in them are followed and kept compiling.
 */
export async function simplifyRepository(
  root: string,
  policy: Policy,
  passes: readonly SimplificationPass[],
  options: SimplifyOptions,
): Promise<SimplifyResult> {
  const isIgnored = globMatcher(policy.paths.ignore);
  // Tests and generated code are kept compiling but never simplified themselves.
  const isLeftAlone = globMatcher([...policy.paths.tests, ...policy.paths.generated]);
  const snapshot = await workingTreeSnapshot(root);
  const tracked = snapshot.map((file) => file.path);
  const fileSystem = containedFileSystem(root);
  const skipped: SkippedFile[] = [];
  const readable = (file: SnapshotFile): boolean => {
    const reason = sourceProblem(fileSystem, root, file);
    if (reason !== undefined) skipped.push({ path: file.path, reason });
    return reason === undefined;
  };
  // A name that is not UTF-8 has no string the file system takes back (model/path-bytes.ts), so
  // the compiler could neither read nor patch it: such a file is judged, never simplified.
  const sources = snapshot
    .filter((file) => {
      const language = detectLanguage(file.path);
      return (
        language !== undefined &&
        isScript(language) &&
        !isIgnored(file.path) &&
        !hasEscapedBytes(file.path)
      );
    })
    .filter(readable)
    .map((file) => file.path);
  const changed = options.only ?? (options.changedOnly ? await changedPaths(root) : undefined);
  const scope = sources.filter((path) => !isLeftAlone(path) && (changed?.has(path) ?? true));
  const rootDir = root.replaceAll('\\', '/').replace(/\/+$/, '');
  const loaded = loadProject(
    root,
    sources.map((path) => join(root, path)),
    fileSystem,
  );
  const { project } = loaded;
  skipped.push(...loaded.skipped);
  const publicApi = publicApiOf(
    project,
    await snapshotResolutionFiles(snapshot, gitRepositorySource(root).readBlobs, rootDir),
  );
  const declined: Declined[] = [];
  const context: PassContext = {
    project,
    rootDir,
    scope: new Set(scope),
    publicApi,
    decline: (candidate) => declined.push(candidate),
  };
  const found = findSimplifications(context, passes, policy.simplification.aggressiveness);
  const proposals = [...found.proposals];
  const failedPasses = [...found.failedPasses];
  if (options.model !== undefined) {
    try {
      const assisted = await modelAssistedProposals(context, options.model);
      proposals.push(...assisted.proposals);
      for (const problem of assisted.problems)
        failedPasses.push({ pass: 'model-assisted', error: problem });
    } catch (error) {
      failedPasses.push({
        pass: 'model-assisted',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  const parse = await createFactParser('auto', sources.length);
  const factsOf = async (path: string, text: string): Promise<FileFacts | undefined> => {
    const language = detectLanguage(path);
    return language === undefined ? undefined : parse(language, text);
  };
  const modulesOf = (deleted: ReadonlySet<string>) =>
    groupModules(
      tracked.filter((path) => !deleted.has(path)),
      policy.paths.core,
    ).modules;
  const typeErrorsBefore = createTypeErrorBaseline();
  const env = { root, context, policy, factsOf, modulesOf, typeErrorsBefore };
  const verified: VerifiedPatch[] = [];
  const dropped: DroppedProposal[] = [];
  for (const proposal of proposals) {
    const outcome = await verifyProposal(env, proposal);
    const refusal = 'reason' in outcome ? undefined : modelPatchRefusal(outcome);
    if ('reason' in outcome) dropped.push(outcome);
    else if (refusal !== undefined) dropped.push({ proposal, reason: refusal });
    else verified.push(outcome);
  }
  const composed = composePatches(context, typeErrorsBefore, verified);
  const applied = await applyPatches(root, composed.kept, {
    write: options.apply,
    testCommand: options.apply && options.test ? policy.project.stack.test_command : undefined,
  });

  const metrics = await measure(context, scope, applied, factsOf, policy);
  const others = snapshot.filter((file) => isOtherLanguage(file.path) && !isIgnored(file.path));
  const otherScope = new Set(
    others
      .map((file) => file.path)
      .filter((path) => !isLeftAlone(path) && (changed?.has(path) ?? true)),
  );
  // Read only when there is something to find.
  const findings =
    otherScope.size === 0
      ? []
      : findingsInOtherLanguages(
          await otherFacts(
            root,
            others.filter(readable).map((file) => file.path),
            parse,
            fileSystem,
          ),
          otherScope,
        );
  const deferred = composed.notKept;
  const untracedEntries = publicApi.untraced;
  return {
    scope,
    verified,
    dropped,
    deferred,
    failedPasses,
    applied,
    metrics,
    declined,
    findings,
    unpatchedFiles: otherScope.size,
    untracedEntries,
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/**
 * Why a tracked file is no source reflexion reads: a link or submodule by git's mode, else what
 * the contained disk finds in the working tree (a FIFO in its place, over the read limit).
 */
function sourceProblem(
  fileSystem: ContainedFileSystem,
  root: string,
  file: SnapshotFile,
): string | undefined {
  if (file.mode === SYMLINK_MODE)
    return `it is a symbolic link (mode ${SYMLINK_MODE}), which AUREUS does not follow`;
  if (file.mode !== '100644' && file.mode !== '100755')
    return `it is not a regular file (mode ${file.mode})`;
  return fileSystem.sourceProblem(join(root, file.path));
}

function isOtherLanguage(path: string): boolean {
  const language = detectLanguage(path);
  return language !== undefined && !isScript(language);
}

/**
 * Facts of every file of the other languages: a function's calls are counted across them all.
 * Each was found readable (sourceProblem); one gone or changed since is left out.
 */
async function otherFacts(
  root: string,
  paths: readonly string[],
  parse: (language: Language, text: string) => Promise<FileFacts>,
  fileSystem: ContainedFileSystem,
): Promise<Map<string, FileFacts>> {
  const facts = new Map<string, FileFacts>();
  for (const path of paths) {
    const language = detectLanguage(path);
    if (language === undefined) continue;
    let text: string;
    try {
      text = fileSystem.readFileSync(join(root, path));
    } catch {
      continue;
    }
    facts.set(path, await parse(language, text));
  }
  return facts;
}

async function changedPaths(root: string): Promise<Set<string>> {
  const change = await readChange(root, { kind: 'worktree' });
  return new Set(change.files.filter((file) => file.head !== undefined).map((file) => file.path));
}

/** The scope's facts now and with the kept patches (written or not). */
async function measure(
  context: PassContext,
  scope: readonly string[],
  applied: AppliedPatches,
  factsOf: (path: string, text: string) => Promise<FileFacts | undefined>,
  policy: Policy,
): Promise<SimplificationMetrics> {
  const after = new Map<string, string | null>();
  for (const patch of applied.kept)
    for (const edit of patch.proposal.edits) after.set(edit.path, edit.after);
  const factsBefore = new Map<string, FileFacts>();
  const factsAfter = new Map<string, FileFacts>();
  for (const path of scope) {
    const file = context.project.getSourceFile(`${context.rootDir}/${path}`);
    if (file === undefined) continue;
    const text = file.getFullText();
    const before = await factsOf(path, text);
    if (before !== undefined) factsBefore.set(path, before);
    const patched = after.has(path) ? after.get(path) : text;
    if (patched === null || patched === undefined) continue;
    const facts = patched === text ? before : await factsOf(path, patched);
    if (facts !== undefined) factsAfter.set(path, facts);
  }
  return simplificationMetrics(factsBefore, factsAfter, policy.simplification.target_reduction);
}
