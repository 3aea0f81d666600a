import type { Override } from '../check/record-check.js';
import type { CommandContext } from '../cli/commands/command-context.js';
import { recordLocally } from '../cli/commands/record-locally.js';
import type { ChangeRequest } from '../git/index.js';
import { AureusError, ExitCode } from '../model/errors.js';
import type { Report } from '../model/report.js';
import { renderHook } from '../report/render-hook.js';

/** What a hook reads of its process besides the CLI's io: the environment and standard input. */
export interface HookTrigger {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readStdin: () => Promise<string>;
}

/** `AUREUS_OVERRIDE="reason" git commit …`: lets a blocked commit or push through, recorded. */
export const OVERRIDE_VARIABLE = 'AUREUS_OVERRIDE';

/** What an `incomplete` verdict means for the user in a hook: stopped, and why that is right. */
export const UNDECIDED =
  'AUREUS could not decide, so it does not let the change pass: fix the cause above, or skip the hook once with --no-verify (CI checks again).';

export const ADVISORY =
  'Hooks are advisory: git commit --no-verify (or HUSKY=0) skips them; the CI check is the gate.';

/**
 * husky's off switch. husky's runner never starts a hook under HUSKY=0; the plain scripts of a
 * project without node honour it too, so it means the same wherever the hooks came from.
 */
export function hooksSwitchedOff(trigger: HookTrigger): boolean {
  return trigger.env.HUSKY === '0';
}

/**
 * Starts loading the analysis (about a third of a warm hook's time) while the hook still asks
 * git cheap questions; `judge` then finds it loaded. Never rejects: `judge` reports a failure.
 */
export function preloadChecker(): void {
  loadChecker().catch(() => undefined);
}

function loadChecker() {
  return import('../check/check-change.js');
}

/** A hook's verdict, and what the change writes as one id (unset for the working tree). */
export interface Judged {
  readonly report: Report;
  readonly contentId: string | null;
  /** The judging policy's memory.history_retention_days, which the local ledger keeps. */
  readonly retentionDays?: number;
}

/**
 * The same check as `aureus check` on the same change. The analysis is loaded on first use, so
 * a hook that has nothing to check exits before paying for it.
 */
export async function judge(context: CommandContext, request: ChangeRequest): Promise<Judged> {
  // git reads the change (three or four processes one after another) while the analysis loads.
  const reading = import('../git/read-change.js').then(({ readChange }) =>
    readChange(context.root, request),
  );
  // Settled here if the analysis fails to load first; checkChangeWithInputs awaits it otherwise.
  reading.catch(() => undefined);
  const { checkChangeWithInputs } = await loadChecker();
  const { report, change, policy } = await checkChangeWithInputs(context.root, request, {
    change: reading,
    cwd: context.io.cwd,
    toolVersion: context.version,
    repairBrokenPolicy: true,
    // Hooks are advisory: a loosened policy is a warning here, the pull request's check blocks it.
    policyGate: { kind: 'warn' },
  });
  return {
    report,
    contentId: change.contentId ?? null,
    retentionDays: policy.memory.history_retention_days,
  };
}

/**
 * Appends the check to the local ledger, with the override when one let a block through (see
 * recordLocally for a ledger AUREUS may not write). A staged check keeps its content id, by
 * which the post-commit hook links it to the commit it became.
 */
export async function record(
  context: CommandContext,
  judged: Judged,
  override: Override | null,
): Promise<void> {
  const { recordCheck } = await import('../check/record-check.js');
  const { report } = judged;
  const recorded = report.verdict === 'block' ? override : null;
  const content = report.change.source === 'staged' ? judged.contentId : null;
  await recordLocally(
    context.io,
    () => recordCheck(context.root, report, recorded, content, judged.retentionDays),
    recorded !== null,
  );
}

/** Who overrides (git's author identity, as on the commit) and why; both are required. */
export async function overrideOf(root: string, reason: string, from: string): Promise<Override> {
  const why = reason.trim();
  if (why === '')
    throw new AureusError(
      `${from} needs a reason.`,
      `say why the change goes through over budget, e.g. ${OVERRIDE_VARIABLE}="hotfix for the outage".`,
    );
  const { authorIdentity } = await import('../git/index.js');
  const by = await authorIdentity(root);
  if (by === null)
    throw new AureusError(
      'an override needs to know who gives it, and git has no identity here.',
      'set git config user.name and user.email.',
    );
  return { by, reason: why };
}

/**
 * Prints the verdict: the compact report, or only its headline and the footer for a pass or
 * when the hook before already printed the rest.
 */
export function show(
  context: CommandContext,
  report: Report,
  footer: readonly string[] = [],
  brief = report.verdict === 'pass',
): void {
  // renderHook escapes the report's untrusted text itself, around its own colours.
  const { color, width } = context.io;
  context.io.styled.stdout(renderHook(report, { color, footer, brief, width }));
}

/** 0 pass or warn, 1 block, 2 incomplete: a hook fails closed like every surface. */
export function exitCodeOf(report: Report): number {
  if (report.verdict === 'incomplete') return ExitCode.error;
  return report.verdict === 'block' ? ExitCode.rejected : ExitCode.pass;
}
