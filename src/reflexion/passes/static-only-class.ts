import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { isPublic } from '../public-api/public-api.js';
import { looksGenerated, type ModuleReach, moduleReach } from './module-reach.js';
import { convertedTexts } from './static-only-class-rewrite.js';
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
