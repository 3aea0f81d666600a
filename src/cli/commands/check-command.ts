import { checkChangeWithInputs } from '../../check/check-change.js';
import { checkRepository, recordBaseline } from '../../check/check-repository.js';
import { type Override, recordCheck } from '../../check/record-check.js';
import { authorIdentity, type ChangeRequest } from '../../git/index.js';
import { BASELINE_PATH } from '../../memory/baseline-file.js';
import { writeOutputFile } from '../../memory/output-file.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { Report } from '../../model/report.js';
import { renderJson } from '../../report/render-json.js';
import { renderMarkdown } from '../../report/render-markdown.js';
import { renderSarif } from '../../report/render-sarif.js';
import { renderText } from '../../report/render-text.js';
import { createProgressBar } from '../progress-bar.js';
import type { CommandContext } from './command-context.js';
import { recordLocally } from './record-locally.js';

/**
 * `aureus check`: the verdict on a change. Exit 0 pass or warn, 1 block, 2 incomplete or error.
 * The report goes to stdout in the chosen format, or to --output (with the text summary on
 * stdout); every check is appended to the local ledger.
 */
export async function checkCommand(context: CommandContext): Promise<number> {
  const report = await runCheck(context, await overrideOf(context));
  const rendered = render(report, context);
  // The renderers escape what the repository wrote themselves, around their own colours.
  if (context.options.output === undefined) {
    context.io.styled.stdout(rendered);
  } else {
    await writeOutputFile(context.options.output, rendered, {
      setting: '--output',
      repository: context.root,
    });
    context.io.styled.stdout(renderText(report, { color: context.io.color }));
  }
  if (report.verdict === 'block' && context.options.override !== undefined) {
    context.io.stderr(
      'aureus: blocked change let through by override; recorded in .aureus/local/ledger.jsonl.\n',
    );
    return ExitCode.pass;
  }
  return exitCodeOf(report);
}

/**
 * `--override REASON`: lets a blocked change through here and records who and why in the local
 * ledger. Local checks are advisory; the server-side check in CI or the App stays the gate.
 */
async function overrideOf({ root, options }: CommandContext): Promise<Override | null> {
  const reason = options.override?.trim();
  if (reason === undefined) return null;
  if (reason === '')
    throw new AureusError(
      '--override needs a reason.',
      'say why the change goes through over budget: --override "hotfix for the outage".',
    );
  const by = await authorIdentity(root);
  if (by === null)
    throw new AureusError(
      'an override needs to know who gives it, and git has no identity here.',
      'set git config user.name and user.email.',
    );
  return { by, reason };
}

/** `aureus price`: the cost preview of the change alone, never an exit 1. */
export async function priceCommand(context: CommandContext): Promise<number> {
  const report = await runCheck(context);
  const { cost, costItems, budget } = report;
  if (context.format === 'json') {
    context.io.stdout(
      `${JSON.stringify({ cost, items: costItems, budget, dependencies: report.dependencies }, null, 2)}\n`,
    );
  } else {
    const lines = [`${cost.total} points (budget ${budget.block}, ${budget.remaining} left).`];
    for (const item of costItems)
      lines.push(
        `  ${item.category.padEnd(13)} ${String(item.points).padStart(8)}  ${item.path ?? ''} ${item.detail}`,
      );
    context.io.stdout(`${lines.join('\n')}\n`);
  }
  return report.verdict === 'incomplete' ? ExitCode.error : ExitCode.pass;
}

async function runCheck(
  context: CommandContext,
  override: Override | null = null,
): Promise<Report> {
  const { io, root, options } = context;
  const bar = createProgressBar({ write: io.styled.stderr, ...io.progress });
  const settings = {
    policyFile: options.policy,
    cwd: io.cwd,
    toolVersion: context.version,
    repairBrokenPolicy: options.policy === undefined,
    // Locally a loosened policy is said, never blocking: the pull request's check is the gate.
    policyGate: { kind: 'warn' } as const,
    onProgress: (done: number, total: number) => bar.update(done, total, 'files'),
  };
  const request = requestOf(context);
  // The ledger keeps what the judging policy's memory.history_retention_days says; `--all`
  // judges no change, so its run compacts nothing.
  const checking =
    request === 'all'
      ? checkRepository(root, settings).then((report) => ({ report, retentionDays: 0 }))
      : checkChangeWithInputs(root, request, settings).then(({ report, policy }) => ({
          report,
          retentionDays: policy.memory.history_retention_days,
        }));
  const { report, retentionDays } = await checking.finally(() => bar.finish());
  const recorded = report.verdict === 'block' ? override : null;
  await recordLocally(
    io,
    () => recordCheck(root, report, recorded, null, retentionDays),
    recorded !== null,
  );
  return report;
}

/** `aureus baseline`: records the repository's current findings in .aureus/baseline.json. */
export async function baselineCommand(context: CommandContext): Promise<number> {
  const { io, root, options } = context;
  const settings = { policyFile: options.policy, cwd: io.cwd, toolVersion: context.version };
  const count = await recordBaseline(root, settings);
  io.stdout(
    `${BASELINE_PATH}: ${count} known findings recorded. Commit it: \`aureus check --all\` then blocks only new ones.\n`,
  );
  return ExitCode.pass;
}

/** The change the options name, or `all` for the whole repository. */
function requestOf({ options }: CommandContext): ChangeRequest | 'all' {
  const { staged, base, head, commit, all } = options;
  const chosen = [
    staged === true,
    base !== undefined || head !== undefined,
    commit !== undefined,
    all === true,
  ].filter(Boolean);
  if (chosen.length > 1) {
    throw new AureusError(
      'choose one of --staged, --base/--head, --commit and --all.',
      'see aureus check --help.',
    );
  }
  if (all === true) return 'all';
  if (staged === true) return { kind: 'staged' };
  if (commit !== undefined) return { kind: 'commit', ref: commit };
  if (base !== undefined)
    return { kind: 'range', base, head: head ?? 'HEAD', threeDot: options.threeDot === true };
  if (head !== undefined)
    throw new AureusError(
      '--head needs --base.',
      'name the base the change is compared with: --base main --head HEAD.',
    );
  return { kind: 'worktree' };
}

/** The report in the format asked for (the command table lists the formats check has). */
function render(report: Report, context: CommandContext): string {
  switch (context.format) {
    case 'json':
      return `${renderJson(report)}\n`;
    case 'markdown':
      return `${renderMarkdown(report)}\n`;
    case 'sarif':
      return `${renderSarif(report, { toolVersion: context.version })}\n`;
    default:
      return renderText(report, {
        color: context.io.color && context.options.output === undefined,
      });
  }
}

function exitCodeOf(report: Report): number {
  if (report.verdict === 'incomplete') return ExitCode.error;
  return report.verdict === 'block' ? ExitCode.rejected : ExitCode.pass;
}
