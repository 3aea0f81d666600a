import { createHash } from 'node:crypto';
import { detectLanguage } from '../analysis/detect-language.js';
import type { ChangedFile, FileVersion } from '../model/change.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { priceChange } from '../pricing/index.js';
import { createFactParser, type ParseFacts } from '../scan/fact-parsers.js';
import type { FileEffect } from './tool-contract.js';

/**
 * The price of an action's file effects, by the same core pricing `aureus check` uses: only the
 * files the action touches are parsed (their text before and after), so a gate check costs the
 * same on a repository of any size. Module counts are not known per action: a new module is
 * priced when the branch is checked at Verify.
 */
export function effectPricer(policy: Policy): (effects: readonly FileEffect[]) => Promise<number> {
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
      baseModules: [],
      headModules: [],
      policy,
    });
    return priced.cost.total;
  };
}

function version(path: string, text: string): FileVersion {
  const bytes = Buffer.from(text, 'utf8');
  const blobSha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  return { path, blobSha, mode: '100644', kind: 'text', size: bytes.length, text, validUtf8: true };
}
