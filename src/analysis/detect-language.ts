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
