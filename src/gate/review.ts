import type { CoreSize } from '../critic/core-size.js';
import type { Change } from '../model/change.js';
import type { PricedChange } from '../model/cost.js';
import type { FileFacts } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import type { CoreUse, Report, ReportFinding, Verdict } from '../model/report.js';
import { classifyFindings, growthSentence, type KnownFinding } from './classify-findings.js';
import { suggestAlternatives } from './suggest-alternatives.js';

export interface ReviewInput {
  readonly change: Change;
  /** The policy of the base commit: the one that judges the change. */
  readonly policy: Policy;
  readonly policySource: string;
  /** Settings the change alters in .aureus/policy.yaml (empty when it does not touch it). */
  readonly policyChanges: readonly string[];
  /** The changes among them that loosen the gate (policy-direction.ts). */
  readonly policyLoosens?: readonly string[];
  /** What a loosening does on the surface asking: decided by the surface, never guessed. */
  readonly policyGate: PolicyGate;
  /**
   * Why the change's new policy file does not validate, as `file:line:col: message`: a broken
   * policy blocks when committed, or it would leave every later change unjudgeable.
   */
  readonly policyProblems?: readonly string[];
  readonly priced: PricedChange;
  /** Findings at the base commit, or the committed baseline for a whole-repository check. */
  readonly baseFindings: readonly KnownFinding[];
  /**
   * The findings .aureus/baseline.json records (the base's, for a change), under the head's
   * paths: the figures a rule's growth tolerance counts from. None without a baseline.
   */
  readonly recordedFindings?: readonly KnownFinding[];
  readonly headFindings: readonly Finding[];
  readonly headFacts: ReadonlyMap<string, FileFacts>;
  /** The core's size at the head (critic/core-size.ts), recorded beside its budgets. */
  readonly headCore?: CoreSize;
  readonly installedDependencies: ReadonlySet<string>;
  /**
   * Why parts of the change could not be evaluated, beyond the change's own notes and the
   * files pricing could not measure (`priced.unmeasured`).
   */
  readonly incomplete: readonly string[];
  readonly toolVersion: string;
  /** A maintainer let this change's budget overrun through (bound to its head commit). */
  readonly budgetApproval?: BudgetApproval | undefined;
}

/** Who let a change over its budget through, and why: shown in the reasons, kept in the ledger. */
export interface BudgetApproval {
  readonly by: string;
  readonly reason: string;
}

/** A person with maintain or admin permission let this head's policy loosening through. */
export interface PolicyApproval {
  /** `@login`, as shown. */
  readonly by: string;
  /** The approver's numeric account id: logins change hands, ids do not. */
  readonly accountId: number;
  readonly reason: string;
}

/**
 * How a surface treats a change that loosens the policy. `warn`: said, never blocking (a local
 * check: hooks are advisory, the server-side check is the gate). `approval`: blocks until a
 * maintainer approves this head; `how` tells the reader how to approve on this surface.
 */
export type PolicyGate =
  | { readonly kind: 'warn' }
  | { readonly kind: 'approval'; readonly how: string; readonly approval?: PolicyApproval };

/** The gate: the verdict on a priced, critiqued change, with every reason and the cheaper ways. */
export function review(input: ReviewInput): Report {
  const { change, policy, priced } = input;
  const gaps = [...input.incomplete, ...priced.unmeasured];
  const findings = classifyFindings(input.baseFindings, input.headFindings, {
    policy,
    recorded: input.recordedFindings ?? [],
  });
  const { verdict, reasons } = judge(input, gaps, findings);
  const addedPaths = change.files.flatMap((file) =>
    file.status === 'added' || file.status === 'copied' ? [file.path] : [],
  );
  return {
    schemaVersion: 1,
    tool: { name: 'aureus', version: input.toolVersion },
    verdict,
    reasons,
    change: {
      source: change.source,
      baseSha: change.baseSha,
      headSha: change.headSha,
      files: change.files.length,
      complete: change.complete && gaps.length === 0,
      notes: [...change.notes, ...gaps],
    },
    cost: priced.cost,
    costItems: priced.items,
    dependencies: priced.dependencies,
    budget: {
      warn: policy.budgets.change.warn,
      block: policy.budgets.change.block,
      remaining: round(policy.budgets.change.block - priced.cost.total),
    },
    findings,
    core: input.headCore === undefined ? null : coreUse(input.headCore, policy),
    alternatives:
      verdict === 'pass'
        ? []
        : suggestAlternatives({
            priced,
            findings,
            policy,
            headFacts: input.headFacts,
            addedPaths,
            installedDependencies: input.installedDependencies,
          }),
    policy: {
      source: input.policySource,
      changed: input.policyChanges.length > 0,
      changes: input.policyChanges,
      ...policyDecision(input),
    },
  };
}

function coreUse(size: CoreSize, policy: Policy): CoreUse {
  const { core_loc, core_files, core_modules } = policy.budgets;
  return {
    loc: size.loc,
    locTarget: core_loc.target,
    locHard: core_loc.hard,
    files: size.files,
    filesBudget: core_files,
    modules: size.modules,
    modulesBudget: core_modules,
  };
}

/**
 * The loosened settings, the approval that let them through, if any did, and whether the policy
 * blocks the change by itself (a cause of its own, beside budget and findings).
 */
function policyDecision(
  input: ReviewInput,
): Pick<Report['policy'], 'loosens' | 'approval' | 'blocks'> {
  const loosens = input.policyLoosens ?? [];
  const gate = input.policyGate;
  const approved = loosens.length > 0 && gate.kind === 'approval' ? gate.approval : undefined;
  const blocks = (input.policyProblems ?? []).length > 0 || policyReason(input)?.blocks === true;
  return { loosens, approval: approved ?? null, blocks };
}

/** `gaps`: why the change could not be evaluated in full, beyond its own notes. */
function judge(
  input: ReviewInput,
  gaps: readonly string[],
  findings: readonly ReportFinding[],
): { verdict: Verdict; reasons: string[] } {
  const { change, policy, priced } = input;
  const { warn, block } = policy.budgets.change;
  const total = round(priced.cost.total);
  const incomplete = [...(change.complete ? [] : change.notes), ...gaps];
  const blocking = findings.filter((finding) => finding.blocking);
  const policyProblems = input.policyProblems ?? [];
  const warnings = findings.filter((finding) => finding.status !== 'baseline' && !finding.blocking);
  const approval = input.budgetApproval;
  // An approved overrun is still said, but no longer blocks; findings still do.
  const overBudget = total > block && approval === undefined;
  const reasons: string[] = [];
  if (incomplete.length > 0)
    reasons.push(`the change could not be evaluated in full: ${incomplete.join(' ')}`);
  if (total > block) {
    const over = `the change costs ${total} points, over the budget of ${block} (budgets.change.block) by ${round(total - block)}`;
    reasons.push(
      approval === undefined
        ? `${over}.`
        : `${over}; ${approval.by} approved the overrun for this commit: ${approval.reason}`,
    );
  } else if (total >= warn) {
    reasons.push(
      `the change costs ${total} points, past the warning line of ${warn} (budgets.change.warn).`,
    );
  }
  for (const problem of policyProblems)
    reasons.push(`the new policy does not validate: ${problem}`);
  for (const finding of blocking)
    reasons.push(
      `${finding.status} ${finding.ruleId}: ${finding.message}${growthSentence(finding)}`,
    );
  for (const finding of warnings) {
    const kind = finding.severity === 'warn' ? 'warning' : 'within its growth tolerance';
    reasons.push(
      `${finding.status} ${finding.ruleId} (${kind}): ${finding.message}${growthSentence(finding)}`,
    );
  }
  const loosening = policyReason(input);
  if (loosening !== undefined) reasons.push(loosening.reason);
  else if (input.policyChanges.length > 0 && policyProblems.length === 0) {
    reasons.push(
      'policy change: the change edits .aureus/policy.yaml without loosening it; it is judged by the base policy, and its settings apply once merged.',
    );
  }
  // Incomplete first: a change that could not be read in full is never a pass, nor merely a block.
  const verdict: Verdict =
    incomplete.length > 0
      ? 'incomplete'
      : overBudget || blocking.length > 0 || policyProblems.length > 0 || loosening?.blocks
        ? 'block'
        : reasons.length > 0
          ? 'warn'
          : 'pass';
  if (verdict === 'pass')
    reasons.push(
      `the change costs ${total} points, within the budget of ${block}, with no new blocking finding.`,
    );
  return { verdict, reasons };
}

/**
 * What a loosening of the policy says, and whether it blocks: on a surface that asks for an
 * approval, it blocks until a maintainer approves this head; locally it is a warning.
 */
function policyReason(input: ReviewInput): { reason: string; blocks: boolean } | undefined {
  const loosens = input.policyLoosens ?? [];
  if (loosens.length === 0) return undefined;
  const settings = shownSettings(loosens);
  const gate = input.policyGate;
  const head = `policy change loosens the gate (${settings})`;
  if (gate.kind === 'warn')
    return {
      reason: `${head}: judged by the base policy here; on the pull request it blocks until a maintainer or admin approves it.`,
      blocks: false,
    };
  if (gate.approval !== undefined)
    return {
      reason: `${head}; ${gate.approval.by} (maintain or admin) approved it for this commit: ${gate.approval.reason}`,
      blocks: false,
    };
  return {
    reason: `${head} — needs the approval of a person with maintain or admin permission: ${gate.how}`,
    blocks: true,
  };
}

/**
 * The loosened settings as the reason names them: a reason is one line in a hook, a comment and
 * the ledger, and a new policy that rewrites every module rule would make it kilobytes long.
 * The first few, each cut at a readable length, and how many more; the report's
 * `policy.loosens` keeps them all.
 */
const SHOWN_SETTINGS = 4;
const SETTING_CHARS = 160;

function shownSettings(loosens: readonly string[]): string {
  const shown = loosens.length <= SHOWN_SETTINGS + 1 ? loosens : loosens.slice(0, SHOWN_SETTINGS);
  const clipped = shown.map((setting) =>
    setting.length <= SETTING_CHARS ? setting : `${setting.slice(0, SETTING_CHARS - 1)}…`,
  );
  const more = loosens.length - shown.length;
  return more === 0
    ? clipped.join('; ')
    : `${clipped.join('; ')}; and ${more} more settings, all in the report's policy.loosens (--format json)`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/*
 * How those reasons read back, for those who audit or learn from the ledger, which keeps a
 * check's reasons rather than its findings: a finding is `STATUS RULE: …` when it blocks and
 * `STATUS RULE (warning): …` (or `(within its growth tolerance)`) when it does not; a change
 * over its budget names `budgets.change.block`.
 */

/** The rule a reason names for a finding, blocking or not; undefined for any other reason. */
export function ruleOfReason(reason: string): string | undefined {
  return /^(?:new|worsened|baseline) ([^\s:(]+)(?::| \()/.exec(reason)?.[1];
}

/** The rule of a finding that blocked the change; undefined when the reason is no such finding. */
export function blockingRuleOfReason(reason: string): string | undefined {
  return /^(?:new|worsened) ([^\s:(]+):/.exec(reason)?.[1];
}

/** The change cost more than its budget (approved or not). */
export function isOverBudgetReason(reason: string): boolean {
  return /^the change costs -?[\d.]+ points, over the budget of [\d.]+ \(budgets\.change\.block\)/.test(
    reason,
  );
}
