import { followRecordedRenames, followRenames, renamesOf } from '../critic/follow-renames.js';
import { withChangeFindings } from '../critic/run-critic.js';
import { type BudgetApproval, type PolicyGate, review } from '../gate/review.js';
import type { Change } from '../model/change.js';
import type { Finding } from '../model/finding.js';
import type { Report } from '../model/report.js';
import { globMatcher } from '../policy/glob-matcher.js';
import { priceChange } from '../pricing/index.js';
import { lockfileReaderOf } from '../pricing/lockfiles.js';
import type { UnreadableFile } from '../scan/repository-source.js';
import type { BaseSide } from './base-side.js';
import type { CommittedBaseline } from './baseline-at-commit.js';
import { declaredDependencies } from './declared-dependencies.js';
import type { JudgingPolicy } from './policy-at-commit.js';

export interface JudgeInput {
  readonly change: Change;
  /** The policy of the base commit (or a file the user named). */
  readonly judging: JudgingPolicy;
  /** What the change does to the policy file, for a maintainer's approval. */
  readonly policyChanges: readonly string[];
  /** The changes among them that loosen the gate. */
  readonly policyLoosens?: readonly string[];
  /** What a loosening does on the surface asking (review.ts). */
  readonly policyGate: PolicyGate;
  /** Why the change's new policy file is unusable (`file:line:col: message`): it blocks. */
  readonly policyProblems?: readonly string[];
  /** The base, analysed (baseSideOf) or kept from a check on the same base (base-side-cache.ts). */
  readonly base: BaseSide;
  /** The head, likewise: analysed, or kept from a check on the same head files. */
  readonly head: BaseSide;
  /** Every path the head holds: the lockfiles among them govern the manifests the change edits. */
  readonly headPaths: readonly string[];
  /**
   * The head analysed under the base's resolution inputs (under-base-resolution.ts), when the
   * change edits them: its findings join the head's, so an import a renamed module or remapped
   * alias makes look external still closes its cycle.
   */
  readonly headUnderBase?: BaseSide | undefined;
  /**
   * What .aureus/baseline.json records at the base, under the base's paths (see
   * baseline-at-commit.ts): the figures growth tolerances count from.
   */
  readonly baseline?: CommittedBaseline | undefined;
  /** Why parts could not be evaluated, beyond the change's notes and the analyses' gaps. */
  readonly incomplete?: readonly string[];
  readonly toolVersion: string;
  /** A maintainer's approval of this head's budget overrun. */
  readonly budgetApproval?: BudgetApproval | undefined;
}

/**
 * The pure half of a check, shared by every source of a change: prices it, runs the critic on
 * both sides and lets the gate judge it by the base policy. A file an analysis could not read
 * makes the Report incomplete, naming the file: its facts are missing, never silently dropped.
 */
export function judgeChange(input: JudgeInput): Report {
  const { base, head } = input;
  const note = input.baseline?.note;
  const change =
    note === undefined ? input.change : { ...input.change, notes: [...input.change.notes, note] };
  const { policy } = input.judging;
  const priced = priceChange({
    change,
    baseFacts: base.facts,
    headFacts: head.facts,
    baseModules: base.modules,
    headModules: head.modules,
    policy,
    shippedTests: { base: base.shippedTests, head: head.shippedTests },
    headLockfiles: keptLockfiles(input.headPaths, policy.paths.ignore),
  });
  const addedDependencies = priced.dependencies.map((dependency) => dependency.name);
  return review({
    change,
    policy,
    policySource: input.judging.source,
    policyChanges: input.policyChanges,
    policyLoosens: input.policyLoosens ?? [],
    policyGate: input.policyGate,
    policyProblems: input.policyProblems ?? [],
    priced,
    // Under the head's paths: a renamed file keeps its findings (see followRenames).
    baseFindings: followRenames(base.findings, change),
    recordedFindings: followRecordedRenames(input.baseline?.recorded ?? [], renamesOf(change)),
    headFindings: worseOf(
      [head, ...(input.headUnderBase === undefined ? [] : [input.headUnderBase])].map((side) =>
        withChangeFindings(side.findings, policy, { addedDependencies }),
      ),
    ),
    headFacts: head.facts,
    headCore: head.core,
    installedDependencies: declaredDependencies(change),
    // The head under the base's resolution lacks what the head lacks, and says so once.
    incomplete: unique([
      ...(input.incomplete ?? []),
      ...unreadableNotes(base, 'base', () => false),
      ...unreadableNotes(head, 'head', hidesChange(base, change, policy.paths.ignore)),
      ...unreadImportNotes(base, head, change),
      ...(input.headUnderBase === undefined
        ? []
        : unreadableNotes(
            input.headUnderBase,
            'head',
            hidesChange(base, change, policy.paths.ignore),
          )),
    ]),
    toolVersion: input.toolVersion,
    budgetApproval: input.budgetApproval,
  });
}

/** The lockfiles AUREUS reads among the head's paths, those the base policy ignores left out. */
function keptLockfiles(paths: readonly string[], ignore: readonly string[]): string[] {
  const ignored = globMatcher(ignore);
  return paths.filter((path) => lockfileReaderOf(path) !== undefined && !ignored(path));
}

function unreadableNotes(
  analysis: Pick<BaseSide, 'unreadable'>,
  side: 'base' | 'head',
  counts: (file: UnreadableFile) => boolean,
): string[] {
  return analysis.unreadable
    .filter((file) => file.reached === undefined || counts(file))
    .map(
      ({ path, problem }) =>
        `${path} could not be read at the ${side}, so the analysis of the ${side} lacks it: ${problem}.`,
    );
}

/**
 * Whether an ignored file analysed code imports, and whose own imports could not be read,
 * hides something this change did. What lies behind it is whatever the analysis reads nowhere
 * else: ignored code, submodules, symbolic links, files it does not read (binary, over a read
 * limit). The change counts when it touches any of those (behind it or not: unknowable), edits
 * the file, or newly reaches it (a new import, a file newly over the limit). A gitlink or a link
 * is not under paths.ignore, so the path alone does not tell. A repository that imports a large
 * bundle is not incomplete on every change that leaves all of that alone.
 */
function hidesChange(
  base: Pick<BaseSide, 'unreadable'>,
  change: Change,
  ignore: readonly string[],
): (file: UnreadableFile) => boolean {
  const ignored = globMatcher(ignore);
  const before = new Set(base.unreadable.filter((file) => file.reached).map(({ path }) => path));
  const touchesUnread = change.files.some(
    (file) =>
      ignored(file.path) ||
      (file.oldPath !== undefined && ignored(file.oldPath)) ||
      [file.base, file.head].some((side) => side !== undefined && side.kind !== 'text'),
  );
  return (file) => touchesUnread || !before.has(file.path);
}

/**
 * The findings of analyses of one side, one per fingerprint: the larger figure where two measure
 * the same finding, so the worse reading judges.
 */
function worseOf(readings: readonly (readonly Finding[])[]): Finding[] {
  const worst = new Map<string, Finding>();
  for (const finding of readings.flat()) {
    const known = worst.get(finding.fingerprint);
    if (known === undefined || (finding.measured ?? 0) > (known.measured ?? 0))
      worst.set(finding.fingerprint, finding);
  }
  return [...worst.values()];
}

/**
 * Code the repository runs that nobody prices or critiques makes the check incomplete.
 * `paths.ignore` is for code the repository does not author (build output, vendored copies),
 * so an imported file there counts once the change edits it or newly imports it (one change
 * could write it while nothing imports it, the next import it untouched). A linked source file
 * counts always: AUREUS never follows a link, so whatever it leads to, edited by this change or
 * not, is out of sight. A submodule counts as an ignored file: AUREUS reads no other
 * repository, so a change that moves its commit, or newly imports it, runs code unjudged.
 */
function unreadImportNotes(base: BaseSide, head: BaseSide, change: Change): string[] {
  const edited = new Set(
    change.files.flatMap((file) => (file.head === undefined ? [] : [file.path])),
  );
  const before = new Set(base.unreadImports.map(({ from, to }) => `${from}\u0000${to}`));
  return head.unreadImports.flatMap(({ from, to, why, through }) => {
    const importsIt = importsVia(from, through);
    if (why === 'symlink')
      return [
        `${to} is a symbolic link, which AUREUS does not follow, yet ${importsIt}, so the code it leads to is neither priced nor critiqued. To resolve, import the file it links to, or commit that file in its place.`,
      ];
    if (!edited.has(to) && before.has(`${from}\u0000${to}`)) return [];
    if (why === 'submodule')
      return [
        `${to} is a submodule, a commit of another repository whose files AUREUS does not read, yet ${importsIt} and the change moves it or adds that import, so code the repository runs is neither priced nor critiqued. To resolve, commit the code it needs into this repository, where it is priced and critiqued.`,
      ];
    return [
      `${to} is under paths.ignore, yet ${importsIt} and the change edits it or adds that import, so code the repository runs is neither priced nor critiqued. To resolve, move it out of the ignored folder; if it is generated, list it under paths.generated instead (priced at pricing.generated_code_weight) in the base policy.`,
    ];
  });
}

/** How the analysed code reaches an unread file: directly, or through ignored files it imports. */
function importsVia(from: string, through: readonly string[]): string {
  return through.length === 0
    ? `${from} imports it`
    : `${from} imports it through ${through.join(', then ')}`;
}

function unique(notes: readonly string[]): string[] {
  return [...new Set(notes)];
}
