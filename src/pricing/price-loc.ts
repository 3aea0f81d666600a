import { detectLanguage } from '../analysis/detect-language.js';
import { linesOf } from '../analysis/tree-sitter/line-index.js';
import type { CostItem } from '../model/cost.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { isLockfile } from './lockfiles.js';
import type { PathRules } from './path-rules.js';
import { counted, type PricedPart, roundPoints } from './points.js';
import type { PricedFile, PricedSide } from './priced-files.js';

/**
 * The `loc` category: one item per priced file (ignored files have none).
 *
 * Δ = head lines − base lines (sideLines: code lines from the facts, non-blank lines for text
 * no extractor reads, 0 for an absent side). An added file's base and a deleted file's head
 * are absent, and so is a copy's base (pricedFiles: a copy is new code); a rename's base is the
 * old path's version, so a pure move is free.
 * Δ > 0 costs Δ × `loc_added`; Δ < 0 earns Δ × `loc_deleted_credit` (negative points).
 *
 * A binary or too-large head adds sizeUnits × `loc_added` (1 point per 4 KiB started, at least
 * 1) with a note. A symlink or submodule head costs nothing, with a note. An unreadable side
 * counts 0 lines, with a note (the change is then incomplete and never passes anyway).
 * Lockfiles cost 0 here: the dependencies category prices what they add.
 *
 * A side that does not parse says so in the detail (unparsed).
 *
 * The file's points are then multiplied by its path weight (`test_code_weight` under
 * `paths.tests`, `generated_code_weight` under `paths.generated`, of the base policy).
 *
 * `textPoints` sums the items of files no extractor reads (data, fixtures, languages AUREUS does
 * not parse): what textCreditTakenBack needs.
 */
export function priceLoc(
  files: readonly PricedFile[],
  policy: Policy,
  rules: PathRules,
): PricedPart & { readonly textPoints: number } {
  const items: CostItem[] = [];
  const notes: string[] = [];
  let textPoints = 0;
  for (const file of files) {
    const priced = priceOne(file, policy, notes, pricedShare(file, rules));
    const weight = rules.weightOf(file.path);
    const label = rules.labelOf(file.path);
    const weighted = label === null || weight === 1 ? '' : ` (${label}, × ${weight})`;
    const marked = file.head?.facts?.generatorMarked === 'new' ? NEW_MARK : UNMARKED;
    const unmarked = rules.isUnmarkedGenerated(file.path) ? marked : '';
    const points = roundPoints(priced.points * weight);
    if (priced.text) textPoints += points;
    const detail = `${priced.detail}${weighted}${unmarked}`;
    items.push({ category: 'loc', points, path: file.path, detail });
  }
  return { items, notes, textPoints: roundPoints(textPoints) };
}

/** Why a file named as generated code is priced as code (path-kinds.ts generatedBy). */
const UNMARKED =
  '; named as generated code (paths.generated), but no comment before its first code says a tool wrote it (`@generated`, `Code generated … DO NOT EDIT`): priced and critiqued as code';
const NEW_MARK =
  "; named as generated code (paths.generated) with a generator's mark, but not generated code at the base (new, copied, or unmarked there): a mark anyone can write buys nothing, so priced and critiqued as code";

/**
 * The files the change leaves untouched that the product runs at the head but did not at the
 * base: tests (by name) that a non-test file now imports. Their lines came in at the test
 * weight when they were committed as tests; now that they ship, they pay the difference,
 * `loc_added` × (head weight − base weight) a code line. A touched file pays it in priceLoc
 * (pricedShare). Otherwise code committed as a test and imported in a later change would come
 * in for a fraction of its lines, whichever change is judged.
 */
export function priceNewlyShipped(
  touched: ReadonlySet<string>,
  headFacts: ReadonlyMap<string, FileFacts>,
  shippedAtHead: ReadonlySet<string> | undefined,
  policy: Policy,
  rules: PathRules,
): PricedPart {
  const items: CostItem[] = [];
  for (const path of [...(shippedAtHead ?? [])].sort()) {
    if (touched.has(path) || rules.isIgnored(path)) continue;
    const was = rules.baseWeightOf(path);
    const now = rules.weightOf(path);
    const loc = headFacts.get(path)?.loc;
    if (now <= was || loc === undefined || loc === 0) continue;
    items.push({
      category: 'loc',
      points: roundPoints(loc * policy.pricing.loc_added * (now - was)),
      path,
      detail: `unchanged, but the product now runs it: ${counted(loc, 'code line', 'code lines')} the base priced as test code (× ${was}) pay the difference to × ${now}`,
    });
  }
  return { items, notes: [] };
}

/**
 * Credit stays with its kind. Lines no extractor reads (an old CSV, a fixture, a language
 * AUREUS does not parse) offset lines of that kind the change adds, and make a change that
 * costs nothing else negative; they never pay for code, a dependency or an abstraction.
 * Otherwise deleting an old 2,000-line CSV would pay for 1,500 lines of new code, and every
 * data file in a repository would be a store of credit. The item taking the surplus back when
 * the rest of the change costs points; undefined otherwise.
 */
export function textCreditTakenBack(textPoints: number, rest: number): CostItem | undefined {
  if (textPoints >= 0 || rest <= 0) return undefined;
  const points = roundPoints(-textPoints);
  return {
    category: 'loc',
    points,
    path: null,
    detail: `credit of ${points} points for removed lines no extractor reads taken back: it pays for nothing else the change adds`,
  };
}

/**
 * The share of a file's base lines already priced as its head prices them: all of them within
 * one kind of path, a share when they were priced at a smaller weight (test or generated code,
 * by their old path for a move, or a test the product now runs), none from documentation, a
 * lockfile or AUREUS's own records, which cost nothing. Otherwise code first committed as a `.txt` file or a test and
 * then moved into the core, or imported by it, would come in for less than its lines, or for
 * free. A change to a smaller weight earns no credit: its share stays 1, as within one kind.
 */
function pricedShare(file: PricedFile, rules: PathRules): number {
  const from = file.base?.version.path;
  if (from === undefined) return 1;
  const was =
    isLockfile(from) || isDocumentation(from) || AUREUS_RECORDS.has(from)
      ? 0
      : rules.baseWeightOf(from);
  const now = rules.weightOf(file.path);
  return now <= 0 ? 1 : Math.min(1, was / now);
}

function fromCheaper(file: PricedFile, share: number): string {
  const moved = file.base?.version.path !== file.path;
  const where = moved ? 'its old path' : 'the base';
  if (share === 0) return `${where} priced none of its lines`;
  return `${where} priced its lines at ${roundPoints(share)} of this ${moved ? "one's " : ''}weight`;
}

function priceOne(file: PricedFile, policy: Policy, notes: string[], share: number) {
  const { loc_added: perAdded, loc_deleted_credit: perDeleted } = policy.pricing;
  if (isLockfile(file.path)) {
    return { points: 0, text: false, detail: 'lockfile: what it adds is priced as dependencies' };
  }
  // A file named as documentation that code runs (required-as-code.ts) has facts: code.
  if (isDocumentation(file.path) && file.head?.facts === undefined)
    return { points: 0, text: false, detail: 'documentation: not priced' };
  if (AUREUS_RECORDS.has(file.path))
    return {
      points: 0,
      text: false,
      detail:
        "AUREUS's own record: judged by what it gives away (a loosening needs a maintainer), not by its lines",
    };
  noteUnpriceable(file, notes);
  const base = sideLines(file.base);
  const head = sideLines(file.head);
  const delta = head.count - Math.round(base.count * share);
  const unit = base.unit === 'text' || head.unit === 'text' ? 'lines' : 'code lines';
  const parts: string[] = [];
  let points = delta > 0 ? delta * perAdded : delta * perDeleted;
  if (delta > 0) parts.push(`adds ${counted(delta, unit.replace('lines', 'line'), unit)}`);
  if (delta < 0) parts.push(`removes ${counted(-delta, unit.replace('lines', 'line'), unit)}`);
  const units = sizeUnits(file.head);
  if (units !== null && file.head !== null) {
    const { kind, size, lfsPointer } = file.head.version;
    const what = lfsPointer === true ? 'Git LFS file' : `${kind} file`;
    points += units * perAdded;
    parts.push(`${what} of ${humanSize(size)}: ${counted(units, 'size unit')}`);
    notes.push(
      `${file.path}: a ${what}, priced by its size (1 point per 4 KiB started, at least 1) since its lines are unknown.`,
    );
  }
  if (parts.length === 0) parts.push(`no change in ${unit}`);
  parts.push(...unparsed(file));
  if (share < 1) parts.push(fromCheaper(file, share));
  return { points, text: unit === 'lines', detail: `${parts.join('; ')}${origin(file)}` };
}

/**
 * A side that does not parse has partial facts: its lines are counted over the whole text, but
 * the abstractions and sensitive surfaces the other categories price are only those the parser
 * read. The item says so, whatever the unparsable_file rule's severity: nothing unread is shown
 * as measured.
 */
function unparsed(file: PricedFile): string[] {
  const head = file.head?.facts?.diagnostics[0];
  const base = file.base?.facts?.diagnostics[0];
  const partial = 'its abstractions and sensitive surfaces count only as far as the parser read';
  if (head !== undefined)
    return [`does not parse (line ${head.line}, column ${head.column}): ${partial}`];
  if (base !== undefined)
    return [`did not parse at the base (line ${base.line}, column ${base.column}): ${partial}`];
  return [];
}

/** Where a moved or copied file came from: a copy's lines are all new, and the reader sees why. */
function origin(file: PricedFile): string {
  const { status, oldPath } = file.file;
  if (oldPath === undefined || (status !== 'renamed' && status !== 'copied')) return '';
  return ` (${status === 'renamed' ? 'moved' : 'copied'} from ${oldPath})`;
}

/** Notes for sides whose lines cannot be known and that are not priced by size either. */
function noteUnpriceable(file: PricedFile, notes: string[]): void {
  const head = file.head?.version.kind;
  if (head === 'symlink' || head === 'submodule') {
    notes.push(`${file.path}: a ${head}, not priced (0 points).`);
  }
  for (const side of [file.base, file.head]) {
    if (side?.version.kind === 'unreadable') {
      notes.push(`${side.version.path}: could not be read, so its lines are not priced.`);
    }
  }
}

/**
 * Prose: README, guides, changelogs, licences. Documentation explains code and adds no
 * complexity to it, so its lines are not priced; pricing it would tax the very habit a
 * complexity budget wants to encourage. A path a language reads is code whatever its name:
 * `src/CHANGELOG.js` or `README.ts` runs, so its name buys nothing.
 */
const DOCUMENTATION = /\.(md|mdx|markdown|rst|adoc|asciidoc|txt)$/i;
const DOCUMENTATION_NAMES =
  /(^|\/)(LICENSE|LICENCE|NOTICE|AUTHORS|CHANGELOG|CONTRIBUTING|README)(\.[^/]*)?$/;

function isDocumentation(path: string): boolean {
  if (detectLanguage(path) !== undefined) return false;
  return DOCUMENTATION.test(path) || DOCUMENTATION_NAMES.test(path);
}

/**
 * The policy and the baseline are data AUREUS reads, never code that runs: an edit is judged by
 * what it loosens (the policy and baseline directions, which a maintainer must approve), and
 * the base's copy is the one that judges. Priced as lines, the baseline `aureus init` writes for
 * a legacy project (hundreds of recorded findings) would block the very commit that adopts it.
 */
const AUREUS_RECORDS = new Set(['.aureus/policy.yaml', '.aureus/baseline.json']);

/** Bytes that cost one point when a binary or too-large file is added or replaced. */
const BYTES_PER_SIZE_POINT = 4096;

/**
 * What one side of a file weighs in lines:
 * - with facts (a supported language): its code lines as the parser sees them (FileFacts `loc`:
 *   comments and blank lines are free, code squeezed onto few lines is not);
 * - a text file without facts (another language, docs, data): its non-blank lines, the best
 *   measure of a file no extractor reads, but never fewer than its size units (one per 4 KiB
 *   started), so 5 MB of text on one line weighs what the same bytes as a binary would;
 * - anything else (binary, too-large, symlink, submodule, unreadable) and an absent side: 0
 *   lines; binary and too-large files are priced by size instead (sizeUnits).
 * `unit` says which measure was used, for the item's detail.
 */
function sideLines(side: PricedSide | null): { count: number; unit: 'code' | 'text' } {
  if (side === null) return { count: 0, unit: 'code' };
  if (side.facts !== undefined) return { count: side.facts.loc, unit: 'code' };
  const { kind, text, size } = side.version;
  if (kind === 'text' && text !== undefined) {
    const count = Math.max(nonBlankLines(text), Math.ceil(size / BYTES_PER_SIZE_POINT));
    return { count, unit: 'text' };
  }
  return { count: 0, unit: 'code' };
}

/**
 * Lines of text in no language AUREUS parses end at LF, CRLF or a lone CR, as a parsed
 * language's lines do (Python's, Java's): a file laid out with lone CRs is as many lines to an
 * editor and to git's diff, and read at LF alone it would be one line, priced by its size.
 */
function nonBlankLines(text: string): number {
  let count = 0;
  for (const line of linesOf(text, 'cr-lf')) if (line.trim() !== '') count += 1;
  return count;
}

/**
 * Size units of a head side that is binary or too large to read: one per 4 KiB started, at
 * least 1, so such a file is never free (its lines are unknown, and a blob in the repository
 * is still something to keep). Null for every other side. Only the head's size counts: a
 * replaced blob is new bytes as a whole, and a deleted or shrunk one earns nothing, since
 * its size says nothing about code removed.
 */
function sizeUnits(side: PricedSide | null): number | null {
  if (side === null) return null;
  const { kind, size } = side.version;
  if (kind !== 'binary' && kind !== 'too-large') return null;
  return Math.max(1, Math.ceil(size / BYTES_PER_SIZE_POINT));
}

/** `12 KiB`, `512 B`: a size for a detail or note. */
function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
}
