import { createHash } from 'node:crypto';
import { detectLanguage } from '../analysis/detect-language.js';
import { groupModules } from '../analysis/graph/policy-modules.js';
import type { ChangedFile, FileVersion } from '../model/change.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import { priceChange } from '../pricing/index.js';
import { createFactParser, type ParseFacts } from '../scan/fact-parsers.js';
import type { FileEffect } from './tool-contract.js';

/**
 * The price of an action's file effects, by the same core pricing `aureus check` uses: only the
 * files the action touches are parsed (their text before and after), so a gate check costs the
 * same on a repository of any size. A file created in a core folder that holds no file yet opens
 * a new module (budgets.core_modules): `listTree` gives the run tree's files before the action,
 * read only then, so the first action that opens a module pays for it and a later one does not.
 */
export function effectPricer(
  policy: Policy,
  listTree: () => Promise<readonly string[]>,
): (effects: readonly FileEffect[]) => Promise<number> {
  let parser: Promise<ParseFacts> | undefined;
  const parse = (language: Parameters<ParseFacts>[0], text: string) => {
    parser ??= createFactParser('auto', 1);
    return parser.then((facts) => facts(language, text));
  };
  return async (effects) => {
    const baseFacts = new Map<string, FileFacts>();
    const headFacts = new Map<string, FileFacts>();
    const files: ChangedFile[] = [];
    for (const effect of effects) {
      const language = detectLanguage(effect.path);
      if (language !== undefined && effect.before !== null)
        baseFacts.set(effect.path, await parse(language, effect.before));
      if (language !== undefined && effect.after !== null)
        headFacts.set(effect.path, await parse(language, effect.after));
      const status =
        effect.before === null ? 'added' : effect.after === null ? 'deleted' : 'modified';
      files.push({
        status,
        path: effect.path,
        ...(effect.before === null ? {} : { base: version(effect.path, effect.before) }),
        ...(effect.after === null ? {} : { head: version(effect.path, effect.after) }),
      });
    }
    const modules = await modulesAround(effects, policy, listTree);
    const priced = priceChange({
      change: {
        source: 'worktree',
        baseSha: null,
        headSha: null,
        files,
        complete: true,
        notes: [],
      },
      baseFacts,
      headFacts,
      baseModules: modules.before,
      headModules: modules.after,
      policy,
    });
    return priced.cost.total;
  };
}

/**
 * The core's modules before and after the action: the tree is listed only when the action creates
 * a core source file, the one way it can open a module (deleting the last file of one is not credited,
 * as `aureus check` does not credit it either).
 */
async function modulesAround(
  effects: readonly FileEffect[],
  policy: Policy,
  listTree: () => Promise<readonly string[]>,
): Promise<{ before: readonly string[]; after: readonly string[] }> {
  // Modules are made of the files the analysis reads, as in the check: source files, not ignored.
  const ignored = globMatcher(policy.paths.ignore);
  const analysed = (path: string) => detectLanguage(path) !== undefined && !ignored(path);
  const core = policy.paths.core;
  const created = effects.flatMap(({ path, before, after }) =>
    before === null && after !== null && analysed(path) ? [path] : [],
  );
  if (groupModules(created, core).modules.length === 0) return { before: [], after: [] };
  const tree = (await listTree()).filter(analysed);
  const deleted = new Set(effects.filter(({ after }) => after === null).map(({ path }) => path));
  const after = [...tree.filter((path) => !deleted.has(path)), ...created];
  return { before: groupModules(tree, core).modules, after: groupModules(after, core).modules };
}

function version(path: string, text: string): FileVersion {
  const bytes = Buffer.from(text, 'utf8');
  const blobSha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  return { path, blobSha, mode: '100644', kind: 'text', size: bytes.length, text, validUtf8: true };
}
