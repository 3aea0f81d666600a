import { type ClassDeclaration, Node, type SourceFile } from 'ts-morph';
import type { Declined, PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import {
  ensureNamedImport,
  identifierNames,
  importOfName,
  removeImportsLeftUnused,
  removeImportsOf,
} from './import-edits.js';
import {
  isBareSuperCall,
  planRemoval,
  type Refusal,
  type Removal,
} from './single-implementation-plan.js';
import { type Abstraction, shapeCandidates } from './single-implementation-uses.js';
import { removeStatement, renameAt, replaceRange } from './text-edits.js';

/**
 * An interface (or a declarations-only abstract class) with exactly one implementing class is
 * indirection without a second case: its users name the class instead and the abstraction goes.
 * Types are erased, so only the types change; the plan refuses whenever anything else could
 * be implementing it, or the new imports could not be written safely.
 */
export const singleImplementationPass: SimplificationPass = {
  name: 'single-implementation',
  level: 'balanced',
  find(context) {
    const candidates = lazily(() => shapeCandidates(context.project));
    const removals: Removal[] = [];
    for (const file of scopedFiles(context)) {
      if (file.isDeclarationFile()) continue;
      for (const abstraction of abstractions(file)) {
        // Public interfaces stay: other packages may implement them.
        const plan = planRemoval(abstraction, candidates, context.publicApi);
        if (plan === undefined) continue;
        if ('reason' in plan) context.decline?.(declined(context, abstraction, plan));
        else removals.push(plan);
      }
    }
    return removals
      .map((removal) => proposal(context, removal))
      .filter((found) => found.edits.length > 0)
      .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  },
};

/** Interfaces and abstract classes: planRemoval says why one with concrete members stays. */
function abstractions(file: SourceFile): Abstraction[] {
  return [...file.getInterfaces(), ...file.getClasses().filter((c) => c.isAbstract())];
}

function declined(context: PassContext, abstraction: Abstraction, refusal: Refusal): Declined {
  const kind = Node.isClassDeclaration(abstraction) ? 'abstract class' : 'interface';
  const only = refusal.viaExtends ? 'subclass' : 'implementation';
  return {
    pass: 'single-implementation',
    title: `${kind} \`${abstraction.getName() ?? ''}\``,
    path: relativePath(context, abstraction.getSourceFile().getFilePath()),
    line: abstraction.getStartLineNumber(),
    reason: `\`${refusal.className}\` is its only ${only}, but ${refusal.reason}`,
  };
}

/** The project-wide scan for implementations by shape, made only if some abstraction needs it. */
function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}

function proposal(context: PassContext, removal: Removal): Proposal {
  const kind = removal.abstractClass ? 'abstract class' : 'interface';
  return {
    pass: 'single-implementation',
    title: `Remove ${kind} \`${removal.name}\`: \`${removal.className}\` is its only implementation`,
    path: relativePath(context, removal.declarationPath),
    line: removal.line,
    edits: captureEdits(context, () => apply(context, removal)),
  };
}

/** Runs on the project as the plan saw it: every node is found again from paths and names. */
function apply(context: PassContext, removal: Removal): void {
  const { project } = context;
  const { name, className } = removal;
  renameAt(project, removal.renames, name, className);
  const declarationFile = project.getSourceFileOrThrow(removal.declarationPath);
  const classFile = project.getSourceFileOrThrow(removal.classPath);
  for (const [path, specifier] of removal.imports) {
    const file = project.getSourceFileOrThrow(path);
    const at = importOfName(file, name, declarationFile);
    ensureNamedImport(file, className, { file: classFile, specifier }, true, at);
  }
  removeImportsOf(project, name, removal.declarationPath);
  dropHeritage(classFile.getClassOrThrow(className), name, removal.viaExtends);
  const abstraction = removal.abstractClass
    ? declarationFile.getClassOrThrow(name)
    : declarationFile.getInterfaceOrThrow(name);
  const mentioned = identifierNames(abstraction);
  removeStatement(abstraction);
  removeImportsLeftUnused(declarationFile, mentioned);
}

/**
 * Takes the abstraction out of the class's heritage. Without a base class, `override` and the
 * leading `super()` would not compile; the plan checked that they are all there is to remove.
 */
function dropHeritage(implementer: ClassDeclaration, name: string, viaExtends: boolean): void {
  if (!viaExtends) {
    const entry = implementer.getImplements().find((e) => e.getExpression().getText() === name);
    if (entry === undefined)
      throw new Error(`${implementer.getName()} no longer implements ${name}`);
    implementer.removeImplements(entry);
    return;
  }
  implementer.removeExtends();
  const constructors = implementer.getConstructors().filter((c) => c.getBody() !== undefined);
  const overrideable = [
    ...implementer.getMembers(),
    ...constructors.flatMap((initializer) => initializer.getParameters()),
  ];
  for (const member of overrideable) {
    if (Node.isOverrideable(member) && member.hasOverrideKeyword())
      member.setHasOverrideKeyword(false);
  }
  for (const initializer of constructors) {
    const first = initializer.getStatements()[0];
    if (first !== undefined && isBareSuperCall(first)) first.remove();
    // What is left of `constructor() { super(); }` is the default constructor, written out.
    const empty =
      initializer.getStatements().length === 0 && initializer.getParameters().length === 0;
    if (empty && !initializer.hasScopeKeyword() && initializer.getOverloads().length === 0) {
      // As text, with its leading line break: removing the member node leaves a blank line.
      replaceRange(initializer.getSourceFile(), initializer.getPos(), initializer.getEnd(), '');
    }
  }
}
