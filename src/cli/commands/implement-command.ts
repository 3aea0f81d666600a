import { readFile } from 'node:fs/promises';
import { type ImplementReport, implement } from '../../agent/implement-run.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';

/**
 * `aureus implement "<task>"` (or --task-file F): the builder on its own branch.
 * Exit 0 done, 1 verification or a budget failed or the run stopped, 2 could not run.
 */
export async function implementCommand(context: CommandContext): Promise<number> {
  const { io, root, options, positionals } = context;
  const { ask } = io;
  const resume = options.resume;
  if (resume !== undefined && (positionals.length > 0 || options.taskFile !== undefined))
    throw new AureusError(
      '--resume continues a run with its own task.',
      'give either a task or --resume <run id>, not both.',
    );
  const task = resume === undefined ? await taskOf(positionals, options.taskFile) : '';
  const report = await implement({
    root,
    task,
    resume,
    env: process.env,
    yes: options.yes === true,
    // Interactive: each tier-2 action waits for the operator's yes.
    confirm:
      ask === undefined
        ? undefined
        : async (question: string) => /^y(es)?$/i.test((await ask(question)).trim()),
    toolVersion: context.version,
    cwd: io.cwd,
  });
  if (context.format === 'json') io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(asText(report));
  return report.status === 'done' ? ExitCode.pass : ExitCode.rejected;
}

async function taskOf(positionals: readonly string[], file: string | undefined): Promise<string> {
  if (file !== undefined && positionals.length > 0)
    throw new AureusError(
      'give the task as text or with --task-file, not both.',
      'see aureus implement --help.',
    );
  const task = file === undefined ? positionals.join(' ') : await readFile(file, 'utf8');
  if (task.trim() === '')
    throw new AureusError(
      'aureus implement needs a task.',
      'aureus implement "add a --verbose flag".',
    );
  return task.trim();
}

function asText(report: ImplementReport): string {
  const lines = [
    `AUREUS implement ${report.id}: ${report.status}.`,
    `Branch ${report.branch} (from ${report.startCommit.slice(0, 12)}): ${report.commits.length} commits, ${report.files.length} files.`,
    ...report.files.map((file) => `  ${file}`),
    `Cost: ${report.points ?? 'not checked'} points of ${report.budget} (aureus check ${report.verdict ?? 'not run'}); the plan's estimate: ${report.estimatedPoints ?? 'none'} points ${JSON.stringify(report.estimate)}.`,
    report.tests === null
      ? 'Tests: none run (project.stack.test_command is empty, or no verification was reached).'
      : `Tests: ${report.tests.argv.join(' ')} exited ${String(report.tests.exitCode)}.`,
    ...(report.simplifications.length === 0
      ? []
      : [
          `Reflexion: ${report.simplifications.length} verified simplifications, committed as aureus: simplify:`,
          ...report.simplifications.map(
            (patch) => `  ${patch.title} (${patch.path}:${patch.line}, ${patch.points} points)`,
          ),
        ]),
    `Votes (${report.decidedBy}):`,
    ...(
      [
        ['correctness', report.votes.correctness],
        ['test quality', report.votes.testQuality],
        ['elegance', report.votes.elegance],
        ['review (advisory)', report.votes.review],
      ] as const
    ).flatMap(([name, each]) => [
      `  ${name}: ${each.vote}.`,
      ...each.reasons.map((reason) => `    - ${reason}`),
    ]),
    `Model: ${report.spend.calls} calls, ${report.spend.inputTokens} tokens in, ${report.spend.outputTokens} out, $${report.spend.usd.toFixed(4)}.`,
  ];
  if (report.summary !== '') lines.push(`Summary: ${report.summary}`);
  lines.push('Nothing was pushed; review the branch and merge it yourself.');
  return `${lines.join('\n')}\n`;
}
