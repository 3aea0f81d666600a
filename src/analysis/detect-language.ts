import type { Language } from '../model/facts.js';

/**
 * Extensions AUREUS analyses, by language. JSX goes to the JavaScript grammar, which parses it.
 * `.pyw` is Python that Windows starts without a console: read as lines only, a script there
 * could spawn processes and eval unpriced and uncritiqued.
 */
const BY_EXTENSION: Readonly<Record<string, Language>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.pyw': 'python',
  '.go': 'go',
  '.java': 'java',
};

/** The language of a path, or undefined for files AUREUS does not analyse (data, docs, …). */
export function detectLanguage(path: string): Language | undefined {
  const dot = path.lastIndexOf('.');
  if (dot === -1 || dot < path.lastIndexOf('/')) return undefined;
  return BY_EXTENSION[path.slice(dot).toLowerCase()];
}

/** Interpreters a `#!` line names (versions dropped: `python3.12`), by language. */
const BY_INTERPRETER: Readonly<Record<string, Language>> = {
  node: 'javascript',
  nodejs: 'javascript',
  bun: 'typescript',
  deno: 'typescript',
  'ts-node': 'typescript',
  tsx: 'typescript',
  python: 'python',
  pypy: 'python',
  // `java --source 17` runs a source file, whatever its name (JEP 330).
  java: 'java',
};

/**
 * The language of a script whose name has no extension (`bin/tool`), from its `#!` line
 * (`#!/usr/bin/env -S node --flags`, `#!/usr/bin/python3.12`), or undefined.
 */
export function languageOfShebang(text: string): Language | undefined {
  const words = /^#!([^\r\n]*)/.exec(text)?.[1]?.trim().split(/\s+/) ?? [];
  const [program, ...rest] = words.map((word) => word.slice(word.lastIndexOf('/') + 1));
  // `env -S node`, `env NODE_ENV=x node`: the first word that is neither an option nor a setting.
  const named = program === 'env' ? rest.find((word) => !/^-|=/.test(word)) : program;
  return BY_INTERPRETER[named?.replace(/[\d.]+$/, '') ?? ''];
}

/** Whether a path's name has no extension (`bin/tool`, `Makefile`): its `#!` line may say the language. */
export function hasNoExtension(path: string): boolean {
  return !path.slice(path.lastIndexOf('/') + 1).includes('.');
}
