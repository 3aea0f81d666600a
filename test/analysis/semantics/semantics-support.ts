import { posix } from 'node:path';
import { detectLanguage } from '../../../src/analysis/detect-language.js';
import type { Resolution, ResolveImport } from '../../../src/analysis/resolve/resolution.js';
import { type Heritage, resolveHeritage } from '../../../src/analysis/semantics/heritage.js';
import { countImplementations } from '../../../src/analysis/semantics/implementations.js';
import { inheritanceDepth } from '../../../src/analysis/semantics/inheritance-depth.js';
import type { FileFacts } from '../../../src/model/facts.js';
import { createFactParser } from '../../../src/scan/fact-parsers.js';

/** The facts of inline sources, by path, from the real extractors (the language by extension). */
export async function factsOf(sources: Record<string, string>): Promise<Map<string, FileFacts>> {
  const parse = await createFactParser('typescript', 0);
  const files = new Map<string, FileFacts>();
  for (const [path, text] of Object.entries(sources)) {
    const language = detectLanguage(path);
    if (language === undefined) throw new Error(`no language for ${path}`);
    files.set(path, await parse(language, text));
  }
  return files;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.js', '/index.ts', '/index.js'];

/**
 * TS/JS resolution among the given paths, enough for these tests: a relative specifier is the
 * file it names, `.js` standing for `.ts` as under NodeNext, or with an extension or `/index`
 * added; `node:` ones are builtins; anything else is a package. (The real resolver is tested in test/analysis/resolve.)
 */
export function resolveAmong(paths: Iterable<string>): ResolveImport {
  const known = new Set(paths);
  return (fromFile, specifier): Resolution => {
    if (specifier.startsWith('node:')) return { kind: 'builtin' };
    if (!specifier.startsWith('.')) {
      const packageName = specifier.startsWith('@')
        ? specifier.split('/').slice(0, 2).join('/')
        : (specifier.split('/')[0] ?? specifier);
      return { kind: 'external', packageName };
    }
    const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
    const stems = base.endsWith('.js') ? [base.slice(0, -3), base] : [base];
    for (const stem of stems) {
      const found = EXTENSIONS.map((extension) => `${stem}${extension}`).find((path) =>
        known.has(path),
      );
      if (found !== undefined) return { kind: 'file', path: found };
    }
    return { kind: 'unresolved' };
  };
}

/** The heritage of inline sources, resolved as analyzeRepository does. */
export async function heritageOf(sources: Record<string, string>): Promise<Heritage> {
  const files = await factsOf(sources);
  return resolveHeritage(files, resolveAmong(files.keys()));
}

/** `file#Name` for each implementation of every abstraction, by `file#Abstraction`. */
export function implementationsOf(heritage: Heritage) {
  const label = ({ file, name }: { file: string; name: string }) => `${file}#${name}`;
  return Object.fromEntries(
    countImplementations(heritage).map((entry) => [
      label(entry),
      {
        direct: entry.direct.map(label),
        all: entry.all.map(label),
        concrete: entry.concrete.map(label),
      },
    ]),
  );
}

/** Each class's depth and chain as `file#Name` (or `?written (reason)` when unresolved). */
export function depthsOf(heritage: Heritage) {
  return Object.fromEntries(
    inheritanceDepth(heritage).map(({ file, name, depth, chain }) => [
      `${file}#${name}`,
      {
        depth,
        chain: chain.map((link) =>
          link.kind === 'declaration'
            ? `${link.file}#${link.name}`
            : `?${link.written} (${link.reason})`,
        ),
      },
    ]),
  );
}
