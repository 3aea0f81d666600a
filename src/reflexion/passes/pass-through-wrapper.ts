import type { FunctionDeclaration, SourceFile, VariableStatement } from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import {
  ensureNamedImport,
  identifierNames,
  importOfName,
  removeImportsLeftUnused,
  removeImportsOf,
} from './import-edits.js';
import { matchWrapper } from './pass-through-wrapper-match.js';
import { planReplacement, type Replacement } from './pass-through-wrapper-plan.js';
import { removeStatement, renameAt } from './text-edits.js';

/**
 * A function whose whole body hands its parameters, unchanged and in order, to another function
 * (`function fetchUser(id) { return loadUser(id); }`) is a second name for it: callers call the
 * other function directly and the wrapper goes. Functions only: a class forwarding to an
 * object's method changes `this`, which is a different simplification.
 */
export const passThroughWrapperPass: SimplificationPass = {
  name: 'pass-through-wrapper',
  level: 'balanced',
  find(context) {
    const replacements: Replacement[] = [];
    for (const file of scopedFiles(context)) {
      if (file.isDeclarationFile()) continue;
      for (const statement of file.getStatements()) {
        const wrapper = matchWrapper(statement);
        const replacement =
          wrapper === undefined ? undefined : planReplacement(wrapper, context.publicApi);
        if (replacement !== undefined) replacements.push(replacement);
      }
    }
    return replacements
      .map((replacement) => proposal(context, replacement))
      .filter((found) => found.edits.length > 0)
      .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  },
};

function proposal(context: PassContext, replacement: Replacement): Proposal {
  return {
    pass: 'pass-through-wrapper',
    title: `Replace pass-through \`${replacement.name}\` with \`${replacement.calleeName}\``,
    path: relativePath(context, replacement.path),
    line: replacement.line,
    edits: captureEdits(context, () => apply(context, replacement)),
  };
}

/** Runs on the project as the plan saw it: every node is found again from paths and names. */
function apply(context: PassContext, replacement: Replacement): void {
  const { project } = context;
  const { name, calleeName } = replacement;
  renameAt(project, replacement.renames, name, calleeName);
  const wrapperFile = project.getSourceFileOrThrow(replacement.path);
  for (const [path, calleeImport] of replacement.imports) {
    const file = project.getSourceFileOrThrow(path);
    const module =
      calleeImport.path === undefined ? undefined : project.getSourceFile(calleeImport.path);
    const target = { file: module, specifier: calleeImport.specifier };
    ensureNamedImport(file, calleeName, target, false, importOfName(file, name, wrapperFile));
  }
  removeImportsOf(project, name, replacement.path);
  const declaration = wrapperDeclaration(wrapperFile, name);
  const mentioned = identifierNames(declaration);
  removeStatement(declaration);
  // The wrapper may have been the file's last user of `g`'s import, or of a parameter's type.
  removeImportsLeftUnused(wrapperFile, mentioned);
}

function wrapperDeclaration(
  file: SourceFile,
  name: string,
): FunctionDeclaration | VariableStatement {
  const declaration =
    file.getFunction(name) ??
    file.getVariableStatement((statement) =>
      statement.getDeclarations().some((variable) => variable.getName() === name),
    );
  if (declaration === undefined) throw new Error(`${name} is gone from ${file.getFilePath()}`);
  return declaration;
}
