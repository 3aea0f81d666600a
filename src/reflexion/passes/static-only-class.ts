import {
  type ClassDeclaration,
  Node,
  type PropertyAccessExpression,
  type SourceFile,
  ts,
} from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { isPublic } from '../public-api/public-api.js';
import { looksGenerated, type ModuleReach, moduleReach } from './module-reach.js';
import type { ClassUses, StaticMember } from './static-only-class-shape.js';
import { classUses, isNameFree, staticMembers } from './static-only-class-shape.js';

interface Candidate {
  readonly filePath: string;
  readonly name: string;
  readonly line: number;
}

/**
 * Turns a class that only groups static members into the module-level functions and constants
 * it stands for: `Class.member` becomes `member` everywhere, and importers import the members.
 */
export const staticOnlyClassPass: SimplificationPass = {
  name: 'static-only-class',
  level: 'balanced',
  find(context) {
    const reach = moduleReach(context.project);
    const candidates: Candidate[] = scopedFiles(context)
      .filter((file) => !file.isDeclarationFile() && !looksGenerated(file))
      .flatMap((file) =>
        file
          .getClasses()
          .filter((cls) => staticMembers(cls) !== undefined)
          .map((cls) => ({
            filePath: file.getFilePath(),
            name: cls.getName() ?? '',
            line: cls.getStartLineNumber(),
          })),
      );
    const proposals: Proposal[] = [];
    for (const candidate of candidates) {
      const edits = captureEdits(context, () => convert(context, reach, candidate));
      if (edits.length === 0) continue;
      proposals.push({
        pass: 'static-only-class',
        title: `Turn static-only class \`${candidate.name}\` into module functions`,
        path: relativePath(context, candidate.filePath),
        line: candidate.line,
        edits,
      });
    }
    return proposals.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  },
};

function convert(context: PassContext, reach: ModuleReach, candidate: Candidate): void {
  const file = context.project.getSourceFileOrThrow(candidate.filePath);
  const cls = file.getClass(candidate.name);
  const members = cls === undefined ? undefined : staticMembers(cls);
  if (cls === undefined || members === undefined) return;
  // An exported class may be used where the project cannot see: as public API, by a barrel's
  // importers, by code that looks modules up by name.
  if (
    cls.isExported() &&
    (isPublic(context.publicApi, file.getFilePath(), candidate.name) ||
      reach.unknownTarget ||
      reach.takenWhole.has(file.getFilePath()))
  )
    return;
  const uses = classUses(cls, members);
  if (uses === undefined) return;
  const names = members.map((member) => member.getName());
  if (!names.every((name) => isNameFree(file, name))) return;
  for (const [other, accesses] of uses.accesses)
    if (!accesses.every((access) => isNameFree(other, access.getName()))) return;
  for (const [target, text] of convertedTexts(cls, members, uses)) target.replaceWithText(text);
}

interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The text of every file the conversion changes: the class's file with the class turned into
 * its members at module level, and each importing file with `Class.member` turned into `member`
 * and the class's import into the members it uses. A member is exported when the class was and
 * another file uses it.
 */
function convertedTexts(
  cls: ClassDeclaration,
  members: readonly StaticMember[],
  uses: ClassUses,
): Map<SourceFile, string> {
  const file = cls.getSourceFile();
  const usedElsewhere = new Set(
    [...uses.accesses]
      .filter(([other]) => other !== file)
      .flatMap(([, accesses]) => accesses.map((access) => access.getName())),
  );
  const exported = cls.isExported() ? usedElsewhere : new Set<string>();
  const own = uses.accesses.get(file) ?? [];
  const texts = new Map<SourceFile, string>();
  const declarations = moduleLevelText(cls, members, own, exported, uses.written);
  texts.set(
    file,
    splice(file.getFullText(), 0, [
      { start: cls.getStart(), end: cls.getEnd(), text: declarations },
      ...own.filter((access) => !isInside(access, cls)).map(toMemberName),
    ]),
  );
  for (const [other, specifier] of uses.imports) {
    const accesses = uses.accesses.get(other) ?? [];
    const names = [...new Set(accesses.map((access) => access.getName()))].sort();
    const imported = {
      start: specifier.getStart(),
      end: specifier.getEnd(),
      text: names.join(', '),
    };
    texts.set(other, splice(other.getFullText(), 0, [imported, ...accesses.map(toMemberName)]));
  }
  return texts;
}

function toMemberName(access: PropertyAccessExpression): Replacement {
  return { start: access.getStart(), end: access.getEnd(), text: access.getName() };
}

/** The class body, each member's head rewritten, accesses shortened and one level less indented. */
function moduleLevelText(
  cls: ClassDeclaration,
  members: readonly StaticMember[],
  accesses: readonly PropertyAccessExpression[],
  exported: ReadonlySet<string>,
  written: ReadonlySet<string>,
): string {
  const text = cls.getSourceFile().getFullText();
  const open = cls.getFirstChildByKindOrThrow(ts.SyntaxKind.OpenBraceToken).getEnd();
  const close = cls.getLastChildByKindOrThrow(ts.SyntaxKind.CloseBraceToken).getStart();
  const replacements = [
    ...members.map((member) => ({
      start: member.getStart(),
      end: member.getNameNode().getEnd(),
      text: head(member, exported, written),
    })),
    ...accesses.filter((access) => isInside(access, cls)).map(toMemberName),
    ...dedent(cls, members, open, close),
  ];
  return splice(text.slice(open, close), open, replacements).trim();
}

/** `static readonly x` → `const x`; `private static async *f` → `async function* f`. */
function head(
  member: StaticMember,
  exported: ReadonlySet<string>,
  written: ReadonlySet<string>,
): string {
  const name = member.getName();
  const prefix = exported.has(name) ? 'export ' : '';
  if (Node.isPropertyDeclaration(member))
    return `${prefix}${written.has(name) ? 'let' : 'const'} ${name}`;
  const asynchronous = member.isAsync() ? 'async ' : '';
  return `${prefix}${asynchronous}function${member.isGenerator() ? '*' : ''} ${name}`;
}

/**
 * Takes the members' indentation off each line of the body, except a line that starts inside a
 * template literal: that whitespace is part of a string.
 */
function dedent(
  cls: ClassDeclaration,
  members: readonly StaticMember[],
  open: number,
  close: number,
): Replacement[] {
  const text = cls.getSourceFile().getFullText();
  const first = members[0]?.getStart(true) ?? close;
  const indent = text.slice(text.lastIndexOf('\n', first) + 1, first);
  if (!/^[ \t]+$/.test(indent)) return [];
  const templates = cls
    .getDescendants()
    .filter(
      (node) => Node.isTemplateExpression(node) || Node.isNoSubstitutionTemplateLiteral(node),
    );
  const replacements: Replacement[] = [];
  for (
    let at = text.indexOf('\n', open);
    at !== -1 && at < close;
    at = text.indexOf('\n', at + 1)
  ) {
    const start = at + 1;
    const inTemplate = templates.some((node) => node.getStart() < start && start < node.getEnd());
    if (!inTemplate && text.startsWith(indent, start) && start + indent.length <= close)
      replacements.push({ start, end: start + indent.length, text: '' });
  }
  return replacements;
}

function isInside(node: Node, container: Node): boolean {
  return node.getStart() >= container.getStart() && node.getEnd() <= container.getEnd();
}

/** `text` (which starts at `offset` in its file) with the replacements made. */
function splice(text: string, offset: number, replacements: readonly Replacement[]): string {
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const replacement of [...replacements].sort((a, b) => b.start - a.start)) {
    if (replacement.end > limit) throw new Error('static-only-class: overlapping replacements');
    result =
      result.slice(0, replacement.start - offset) +
      replacement.text +
      result.slice(replacement.end - offset);
    limit = replacement.start;
  }
  return result;
}
