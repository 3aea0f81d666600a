import { Project, ts } from 'ts-morph';
import type {
  FileEdit,
  PassContext,
  Proposal,
  SimplificationPass,
} from '../../../src/reflexion/proposal.js';
import { publicApiOf } from '../../../src/reflexion/public-api/public-api.js';

/** Where fixture projects live in memory. */
export const ROOT = '/repo';

/** Strict, modern settings: what the over-engineered fixtures are written against. */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  noEmit: true,
  skipLibCheck: true,
  // The language's own declarations with the console, not the DOM's 20,000 lines: parsing
  // those again for every in-memory project was most of these tests' time.
  lib: ['lib.es2022.d.ts'],
};

/** package.json and tsconfig files: read for the public API, not sources of the project. */
const JSON_FILE = /\.json$/;

/** An in-memory project of `files` (repository-relative paths → text), JSON files left out. */
export function fixtureProject(files: Readonly<Record<string, string>>): Project {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: COMPILER_OPTIONS });
  for (const [path, text] of Object.entries(files))
    if (!JSON_FILE.test(path)) project.createSourceFile(`${ROOT}/${path}`, text);
  return project;
}

/**
 * A pass's context over `files`, every source in scope unless `scope` says otherwise, the public
 * API read from the package.json and tsconfig files among them.
 */
export function fixtureContext(
  files: Readonly<Record<string, string>>,
  scope: readonly string[] = Object.keys(files).filter((path) => !JSON_FILE.test(path)),
): PassContext {
  const project = fixtureProject(files);
  const texts = new Map(Object.entries(files).filter(([path]) => JSON_FILE.test(path)));
  const publicApi = publicApiOf(project, {
    rootDir: ROOT,
    paths: Object.keys(files),
    texts,
    unreadable: [],
  });
  return { project, rootDir: ROOT, scope: new Set(scope), publicApi };
}

/** The files after `edits`, as a new record (deleted files left out). */
export function applyEdits(
  files: Readonly<Record<string, string>>,
  edits: readonly FileEdit[],
): Record<string, string> {
  const result: Record<string, string> = { ...files };
  for (const edit of edits) {
    if (result[edit.path] !== edit.before)
      throw new Error(`${edit.path} is not what the edit expects`);
    if (edit.after === null) delete result[edit.path];
    else result[edit.path] = edit.after;
  }
  return result;
}

/** Type errors of a project of `files`, as `path: TS1234 message` lines, sorted. */
export function typeErrors(files: Readonly<Record<string, string>>): string[] {
  const project = fixtureProject(files);
  return project
    .getPreEmitDiagnostics()
    .map((diagnostic) => {
      const path =
        diagnostic
          .getSourceFile()
          ?.getFilePath()
          .slice(ROOT.length + 1) ?? '(project)';
      const message = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n');
      return `${path}: TS${diagnostic.getCode()} ${message}`;
    })
    .sort();
}

/**
 * Runs `pass` over `files` and checks what every proposal must hold: the project is left as it
 * was, each proposal's edits apply to the files, and the result type-checks no worse.
 */
export function runPass(
  pass: SimplificationPass,
  files: Readonly<Record<string, string>>,
  scope?: readonly string[],
): Proposal[] {
  const context = fixtureContext(files, scope);
  const proposals = pass.find(context);
  for (const file of context.project.getSourceFiles()) {
    const path = file.getFilePath().slice(ROOT.length + 1);
    if (file.getFullText() !== files[path]) throw new Error(`${pass.name} left ${path} changed`);
  }
  const errorsBefore = typeErrors(files);
  for (const proposal of proposals) {
    const after = typeErrors(applyEdits(files, proposal.edits));
    const added = after.filter((line) => !errorsBefore.includes(line));
    if (added.length > 0) {
      throw new Error(`${proposal.title}: new type errors\n${added.join('\n')}`);
    }
  }
  return proposals;
}
