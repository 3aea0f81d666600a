import { detectLanguage } from '../analysis/detect-language.js';
import { baselineAtCommit } from '../check/baseline-at-commit.js';
import { findingsKeeper } from '../critic/kept-findings.js';
import { runCritic } from '../critic/run-critic.js';
import { classifyFindings, type KnownFinding } from '../gate/classify-findings.js';
import { type TreeEntry, treeIdOf } from '../git/tree-id.js';
import { errnoCode } from '../memory/errno-code.js';
import { createFactsCache, type FactsCache } from '../memory/facts-cache.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import type { ReportFinding } from '../model/report.js';
import { gitBlobId } from '../reflexion/edit-forms.js';
import { analyzeRepository } from '../scan/analyze-repository.js';
import { analyzeSnapshot } from '../scan/analyze-snapshot.js';
import { resolutionsKeeper } from '../scan/cached-resolver.js';
import { gitRepositorySource } from '../scan/git-repository-source.js';
import { graphKeeper } from '../scan/kept-graph.js';
import { commitSnapshot, type SnapshotFile } from '../scan/working-tree-snapshot.js';
import type { Refusal } from './action-gates.js';
import type { FileEffect } from './tool-contract.js';

/**
 * The safety gate's critic: the forbidden-pattern rules `aureus check` runs, on the run's tree
 * as the action would leave it, judged against the run's start commit the way the check of the
 * branch will judge it (new, or worse than the base and past any growth tolerance). Only what
 * blocks in the files the action touches refuses it, so the model hears of its own finding
 * before the file is written; the findings the base already had stay allowed.
 *
 * The base side is analysed once per run; each action's side reuses the facts of the files it
 * does not touch (kept in memory by blob), the import answers of the tree before it (kept open
 * while no path, config or link changes) and its import graph (while the files touched keep
 * their imports), so only the files it touches are parsed again; the rules that judge one file
 * at a time judge those files alone while the graph is kept (kept-findings.ts).
 */
export interface EffectCriticSettings {
  readonly root: string;
  /** The run's linked worktree: its checkpoint commits live in the same object store. */
  readonly tree: string;
  readonly startCommit: string;
  readonly policy: Policy;
}

/** The tree as it is before the action: the action's checkpoint, its commit and its tree. */
export interface TreeBefore {
  readonly commit: string;
  readonly tree: string;
  /** Its files, when the checkpoint knows them (taken without git): then git is not asked. */
  readonly files?: readonly TreeEntry[];
}

export type EffectCritic = (
  effects: readonly FileEffect[],
  before: TreeBefore,
) => Promise<Refusal | null>;

export function effectCritic(settings: EffectCriticSettings): EffectCritic {
  const findings = effectFindings(settings);
  return async (effects, before) => {
    // Only source files have facts: an action writing none of them changes no finding.
    if (!effects.some((effect) => detectLanguage(effect.path) !== undefined)) return null;
    const touched = effects.map((effect) => effect.path);
    const blocking = (await findings(effects, before)).filter(
      (finding) => finding.blocking && touches(finding, touched),
    );
    return blocking.length === 0 ? null : refusal(blocking);
  };
}

/** Every finding of the tree as an action would leave it, judged against the start commit. */
export type EffectFindings = (
  effects: readonly FileEffect[],
  before: TreeBefore,
) => Promise<ReportFinding[]>;

/**
 * The critic's findings behind `effectCritic`, for the whole would-be tree. The start commit is
 * analysed once, on the first call; every later call reuses the facts of the files it did not
 * change (one facts cache for the run), so only the changed files are parsed or decoded, the
 * import answers of the call before while they hold (resolutionsKeeper: the same paths, configs
 * and links), so the stored answers are not read again, and its import graph, cycles and module
 * edges while the files changed since kept their imports (kept-graph.ts).
 */
export function effectFindings(settings: EffectCriticSettings): EffectFindings {
  const { policy } = settings;
  const source = gitRepositorySource(settings.tree);
  const factsCache = createFactsCache(source.cacheDir);
  const runFacts = keptInMemory(factsCache);
  const openResolutions = resolutionsKeeper();
  const keptGraph = graphKeeper();
  const keptFindings = findingsKeeper();
  let known: Promise<{ base: KnownFinding[]; recorded: readonly KnownFinding[] }> | undefined;
  const baseline = () => {
    known ??= (async () => {
      const project = await analyzeRepository(settings.root, policy, {
        snapshot: { kind: 'commit', ref: settings.startCommit },
        factsCache,
      });
      const committed = await baselineAtCommit(settings.root, settings.startCommit, policy);
      return { base: runCritic({ policy, project }), recorded: committed.recorded };
    })();
    return known;
  };
  const listings = treeListings(settings.tree);
  return async (effects, before) => {
    const files = new Map((await listings(before, effects)).map((file) => [file.path, file]));
    for (const effect of effects) {
      if (effect.after === null) files.delete(effect.path);
      else files.set(effect.path, written(effect.path, effect.after, files.get(effect.path)));
    }
    const project = await analyzeSnapshot(source, [...files.values()], policy, {
      factsCache: runFacts,
      openResolutions,
      graphKeeper: keptGraph,
    });
    const { base, recorded } = await baseline();
    return classifyFindings(base, runCritic({ policy, project }, keptFindings), {
      policy,
      recorded,
    });
  };
}

/**
 * The run's facts cache: entries read or parsed once are kept in memory by blob and language,
 * and the facts of files the run parses one by one (the versions its actions write, most of
 * them gone an action later) stay there, never written to the user's cache. A pack (a command
 * that rewrote many files) goes to the cache, when it can; the start commit's analysis uses the
 * cache itself.
 */
function keptInMemory(cache: FactsCache): FactsCache {
  const known = new Map<string, FileFacts>();
  const keyOf = (blobSha: string, language: string) => `${language}\0${blobSha}`;
  return {
    get: async (blobSha, language) => {
      const key = keyOf(blobSha, language);
      const facts = known.get(key) ?? (await cache.get(blobSha, language));
      if (facts !== undefined) known.set(key, facts);
      return facts;
    },
    put: async (blobSha, language, facts) => {
      known.set(keyOf(blobSha, language), facts);
    },
    getMany: async (keys) => {
      const found = keys.map(({ blobSha, language }) => known.get(keyOf(blobSha, language)));
      const missing = keys.filter((_key, index) => found[index] === undefined);
      if (missing.length === 0) return found;
      const read = await cache.getMany(missing);
      let next = 0;
      return keys.map(({ blobSha, language }, index) => {
        const facts = found[index] ?? read[next++];
        if (found[index] === undefined && facts !== undefined)
          known.set(keyOf(blobSha, language), facts);
        return facts;
      });
    },
    putMany: (entries) => savedOrNot(cache.putMany(entries)),
    startPack: () => {
      const pack = cache.startPack();
      return { add: pack.add, write: () => savedOrNot(pack.write()) };
    },
  };
}

/**
 * A save to the user's cache that the file system refused (its folder deleted mid-run, a full
 * disk): the analysis has the facts it parsed, so the gate judges with them; only a later run
 * parses them again.
 */
async function savedOrNot(saving: Promise<void>): Promise<void> {
  try {
    await saving;
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
  }
}

/**
 * The files of each checkpoint's tree, as `git ls-tree` lists them: the checkpoint's own
 * listing when it has one (taken without git, it computed the tree from it). Most hold the
 * tree of the one before, or that tree with the last action's files written (the action
 * passed): a listing computed so is taken when its tree id is the checkpoint's, and git is
 * asked only when neither is (a command changed other files, HEAD moved).
 */
function treeListings(
  tree: string,
): (before: TreeBefore, effects: readonly FileEffect[]) => Promise<readonly SnapshotFile[]> {
  let last:
    | { tree: string; files: readonly SnapshotFile[]; effects: readonly FileEffect[] }
    | undefined;
  const known = (before: TreeBefore): readonly SnapshotFile[] | undefined => {
    if (last === undefined) return undefined;
    if (last.tree === before.tree) return last.files;
    const applied = withEffects(last.files, last.effects);
    return treeIdOf(applied) === before.tree ? applied : undefined;
  };
  return async (before, effects) => {
    const files = before.files ?? known(before) ?? (await commitSnapshot(tree, before.commit));
    last = { tree: before.tree, files, effects };
    return files;
  };
}

/** A listing with these files written or deleted, as `git ls-tree -r -l` would list it. */
function withEffects(
  files: readonly SnapshotFile[],
  effects: readonly FileEffect[],
): SnapshotFile[] {
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const { path, after } of effects) {
    if (after === null) byPath.delete(path);
    else {
      const { blobSha, mode } = written(path, after, byPath.get(path));
      byPath.set(path, { path, blobSha, mode, size: Buffer.byteLength(after) });
    }
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Located in a file the action writes, or about files among them (a cycle names its files). */
function touches(finding: ReportFinding, touched: readonly string[]): boolean {
  const path = finding.location?.path;
  if (path !== undefined && touched.includes(path)) return true;
  return touched.some((each) => finding.symbol.split(/[\s,>]+/).includes(each));
}

function refusal(findings: readonly ReportFinding[]): Refusal {
  const lines = findings.map(
    (finding) =>
      `${finding.ruleId} at ${finding.location === null ? 'the repository' : `${finding.location.path}:${finding.location.startLine}`}: ${finding.message}`,
  );
  return {
    ok: false,
    refusedBy: 'safety',
    error: `This action would add ${findings.length === 1 ? 'a forbidden pattern' : `${findings.length} forbidden patterns`} that aureus check blocks:\n${lines.join('\n')}`,
    hint: 'Write it another way: smaller classes or plain functions, no abstraction with a single implementation, only the imports the policy allows. Nothing was written.',
  };
}

function written(path: string, text: string, was: SnapshotFile | undefined): SnapshotFile {
  return { path, blobSha: gitBlobId(text), mode: was?.mode ?? '100644', text };
}
