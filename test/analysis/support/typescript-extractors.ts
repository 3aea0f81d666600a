import { extractOxcFacts } from '../../../src/analysis/oxc/oxc-facts.js';
import { extractTypeScriptFacts } from '../../../src/analysis/typescript/typescript-facts.js';
import type { FileFacts } from '../../../src/model/facts.js';

export type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

export type Extract = (text: string, language: ScriptLanguage) => Promise<FileFacts>;

export const viaTypeScript: Extract = async (text, language) =>
  extractTypeScriptFacts(text, language);

export const viaOxc: Extract = async (text, language) => extractOxcFacts(text, language);

export const EXTRACTORS: readonly (readonly [string, Extract])[] = [
  ['TypeScript', viaTypeScript],
  ['oxc', viaOxc],
];

/** The language a file's extension means. */
export function languageOf(path: string): ScriptLanguage {
  if (path.endsWith('.tsx')) return 'tsx';
  return /\.[cm]?ts$/.test(path) ? 'typescript' : 'javascript';
}
