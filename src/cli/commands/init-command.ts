import { createInterface } from 'node:readline/promises';
import { installHooks } from '../../hooks/install-hooks.js';
import {
  BUILDER_WORKFLOW_PATH,
  builderWorkflow,
  pinnedAction,
} from '../../init/builder-workflow.js';
import { describeIntelligence } from '../../init/describe-intelligence.js';
import { type BuilderInitOutcome, initBuilder } from '../../init/init-builder.js';
import { applyInit, type BaselineOutcome, planInit } from '../../init/init-project.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import { createProgressBar } from '../progress-bar.js';
import type { CommandContext } from './command-context.js';

/**
 * `aureus init`: surveys the repository, prints what it found and why, and writes
 * `.aureus/policy.yaml` when there is none: with --yes, or after a yes at the terminal. Without
 * a terminal and without --yes it previews and exits 2, so a script never mistakes "nothing
 * written" for success. A policy that exists is never overwritten: the difference is shown.
 */
export async function initCommand(context: CommandContext): Promise<number> {
  const { options } = context;
  // --action and --force only say how to write the builder workflow: alone they would do nothing.
  if (options.builder !== true && (options.action !== undefined || options.force === true))
    throw new AureusError(
      `${options.action === undefined ? '--force' : '--action'} applies to the builder workflow, and --builder was not given.`,
      'add --builder to write .github/workflows/aureus-builder.yml, or leave the option out.',
    );
  // --builder needs its --action before anything is surveyed or written.
  const action = options.builder === true ? pinnedAction(options.action) : undefined;
  const exitCode = await initPolicy(context);
  if (action === undefined || exitCode !== ExitCode.pass) return exitCode;
  if (options.dryRun === true) {
    context.io.stdout(
      `\n--dry-run: nothing written. ${BUILDER_WORKFLOW_PATH} would be:\n\n${builderWorkflow(action)}\nand the policy would get integrations.app.builder: true.\n`,
    );
    return ExitCode.pass;
  }
  const outcome = await initBuilder(context.root, {
    action,
    force: options.force === true,
    cwd: context.io.cwd,
  });
  context.io.stdout(builderNextSteps(outcome));
  return ExitCode.pass;
}

/** What init --builder did, and what is left to the user on GitHub. */
function builderNextSteps(outcome: BuilderInitOutcome): string {
  const workflow = {
    written: `Wrote ${outcome.workflowPath}.`,
    replaced: `Replaced ${outcome.workflowPath} (--force).`,
    identical: `${outcome.workflowPath} already holds exactly this workflow.`,
  }[outcome.workflow];
  const policy =
    outcome.policy === 'edited'
      ? `Set integrations.app.builder: true in ${outcome.policyPath} (its comments kept).`
      : `${outcome.policyPath} already has integrations.app.builder: true.`;
  return [
    '',
    workflow,
    policy,
    'Next steps:',
    '  1. Commit both files to the default branch: the builder reads its policy and workflow there.',
    '  2. Add the repository secret ANTHROPIC_API_KEY (Settings → Secrets and variables → Actions):',
    '     the plan and act jobs give the model that key and nothing else.',
    `  3. Create the label ${outcome.label} (integrations.app.builder_label): a writer adding it to an`,
    '     issue starts the builder, as /aureus implement does.',
    '  4. Permissions: the workflow declares its own per job (plan and act read only; publish',
    '     contents, pull-requests and issues write); allow GitHub Actions to create pull requests',
    '     (Settings → Actions → General), which the publish job needs. Whatever dispatches the',
    '     workflow needs actions: write: the AUREUS App, or the aureus-commands workflow of the',
    '     README ("Commands and the builder label without the App").',
    '',
  ].join('\n');
}

async function initPolicy(context: CommandContext): Promise<number> {
  const { io, root, options } = context;
  const bar = createProgressBar({ write: io.styled.stderr, ...io.progress });
  const settings = {
    cwd: io.cwd,
    toolVersion: context.version,
    onProgress: (done: number, total: number) => bar.update(done, total, 'files'),
  };
  const plan = await planInit(root, settings).finally(() => bar.finish());
  io.stdout(describeIntelligence(plan.intelligence, plan.generated));
  const { existing, shownPath } = plan;
  const dryRun = options.dryRun === true;
  if (dryRun) io.stdout(`\n--dry-run: nothing written. ${shownPath} would be:\n\n${plan.text}`);
  if (existing.kind === 'identical') {
    io.stdout(`\n${shownPath} already holds exactly this policy: nothing to write.\n`);
    return ExitCode.pass;
  }
  if (existing.kind === 'different') {
    io.stdout(
      `\n${shownPath} exists and is left as it is: aureus init never overwrites a policy.\nWhat init would write instead, as a diff from yours:\n\n${existing.diff}\nTo take any of it, copy the lines you want; to start over, delete the file and run aureus init again.\n`,
    );
    return ExitCode.pass;
  }
  if (dryRun) return ExitCode.pass;
  if (options.yes !== true) {
    io.stdout(`\n${shownPath} would be:\n\n${plan.text}`);
    if (!(await confirmed(context, `Write ${shownPath}? [y/N] `))) {
      if (!interactive(context)) {
        throw new AureusError(
          `nothing written: aureus init writes ${shownPath} only when told to, and there is no terminal to ask.`,
          'rerun with --yes to write it (or --dry-run to preview without this error).',
        );
      }
      io.stdout('Nothing written.\n');
      return ExitCode.pass;
    }
  }
  const baseline = await applyInit(root, plan, settings);
  io.stdout(`\nWrote ${shownPath}.${baselineNote(baseline)} Review and commit it.\n`);
  if (options.withoutHooks === true) return ExitCode.pass;
  // From here every commit is priced before it is made (aureus hooks uninstall undoes it).
  const hooks = await installHooks(root);
  const how = hooks.mode === 'husky' ? 'husky' : 'plain git hooks';
  io.stdout(
    `${[`Pre-commit check installed (${how} in ${hooks.hooksDir}/):`, ...hooks.changed.map((file) => `  ${file}`), ...hooks.notes.map((note) => `Note: ${note}`)].join('\n')}\n`,
  );
  return ExitCode.pass;
}

function baselineNote(outcome: BaselineOutcome): string {
  switch (outcome.kind) {
    case 'recorded':
      return ` Recorded ${outcome.findings} known findings in .aureus/baseline.json: only new ones block.`;
    case 'kept':
      return ' Kept the existing .aureus/baseline.json (`aureus baseline` records it again).';
    default:
      return '';
  }
}

/** Whether a person can answer: stdin and stderr are terminals, outside CI. */
function interactive({ io }: CommandContext): boolean {
  return io.progress.interactive && process.stdin.isTTY === true;
}

/** Asks on the terminal; false without one. The question goes to stderr, keeping stdout clean. */
async function confirmed(context: CommandContext, question: string): Promise<boolean> {
  if (!interactive(context)) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}
