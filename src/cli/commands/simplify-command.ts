import { type AskModel, askModel } from '../../llm/ask-model.js';
import { apiKeyVariable, modelFromPolicy } from '../../llm/model-from-policy.js';
import { type MeteredModel, SpendCapReached, type Spent } from '../../llm/spend.js';
import { modelSpendToday } from '../../memory/model-spend-today.js';
import { loadPolicy } from '../../memory/policy-file.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { Policy } from '../../model/policy.js';
import { unifiedDiff } from '../../reflexion/edit-forms.js';
import { SIMPLIFICATION_PASSES } from '../../reflexion/pass-catalog.js';
import { recordSimplify } from '../../simplify/record-simplify.js';
import { type SimplifyRounds, simplifyUntilDone } from '../../simplify/simplify-until-done.js';
import type { CliIo } from '../cli-io.js';
import type { CommandContext } from './command-context.js';
import { recordLocally } from './record-locally.js';

/** `aureus simplify`: reflexion on demand, locally. */
export async function simplifyCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  if (options.test === true && options.apply !== true)
    throw new AureusError(
      '--test runs the tests on written patches.',
      'add --apply, or leave out --test.',
    );
  const { policy } = await loadPolicy({ root, file: options.policy, cwd: io.cwd });
  if (!policy.simplification.enabled) {
    io.stderr('Reflexion is off in this repository (simplification.enabled: false).\n');
    return ExitCode.pass;
  }
  const model = await modelOf(policy, root, process.env, io);
  const result = await simplifyUntilDone(root, policy, SIMPLIFICATION_PASSES, {
    changedOnly: options.changed === true,
    apply: options.apply === true,
    test: options.test === true,
    model: model?.ask,
  });
  const spent = model?.meter.spent();
  await recordLocally(io, () => recordSimplify(root, result, context.version, spent));
  // A diff is for `git apply`: the code's bytes as they are (a CR of a CRLF file included).
  if (format === 'diff')
    io.styled.stdout(unifiedDiff(result.applied.kept.flatMap((patch) => patch.proposal.edits)));
  else if (format === 'json')
    io.stdout(`${JSON.stringify({ ...asJson(result), modelSpend: spent ?? null }, null, 2)}\n`);
  else io.stdout(`${asText(result)}${spent === undefined ? '' : spendLine(spent)}`);
  const capped = model?.capReached();
  if (capped === undefined) return ExitCode.pass;
  // A cap is a bound reached: the run is incomplete, whatever the deterministic passes found.
  io.stderr(
    `aureus: the model-assisted pass stopped: ${capped.message}\nTo resolve, ${capped.hint}\n`,
  );
  return ExitCode.error;
}

const spendLine = (spent: Spent) =>
  `Model: ${count(spent.calls, 'call', 'calls')}, ${spent.inputTokens} tokens in, ${spent.outputTokens} out, $${spent.usd.toFixed(4)}.\n`;

interface SimplifyModel {
  readonly ask: AskModel;
  readonly meter: MeteredModel;
  /** The cap that stopped a call, if one did. */
  capReached(): SpendCapReached | undefined;
}

/**
 * The model for simplification.model_assisted, from model_provider and the key in the variable
 * it names, metered and held to cost_thresholds' caps like the builder's (today's earlier spend
 * read from the ledger). Without one the deterministic passes run alone, and stderr says why.
 */
async function modelOf(
  policy: Policy,
  root: string,
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<SimplifyModel | undefined> {
  if (!policy.simplification.model_assisted) return undefined;
  const provider = policy.model_provider;
  const skipped = (why: string) => {
    io.stderr(
      `simplification.model_assisted is on, but ${why}: only the deterministic passes run.\n`,
    );
    return undefined;
  };
  if (provider.provider === 'none') return skipped('model_provider.provider is none');
  const keyVariable = apiKeyVariable(provider.provider, provider.api_key_env);
  if (provider.provider === 'anthropic' && (env[keyVariable] ?? '') === '')
    return skipped(`${keyVariable} is not set`);
  let spentTodayUsd: number;
  try {
    spentTodayUsd = await modelSpendToday(root, new Date());
  } catch (error) {
    if (!(error instanceof AureusError)) throw error;
    return skipped(
      `today's model spend cannot be read for cost_thresholds.max_usd_per_day (${error.message})`,
    );
  }
  const meter = modelFromPolicy(policy, { env, spentTodayUsd });
  let capped: SpendCapReached | undefined;
  const ask = askModel(
    {
      complete: (role, request) =>
        meter.complete(role, request).catch((error: unknown) => {
          if (error instanceof SpendCapReached) capped = error;
          throw error;
        }),
    },
    'building',
    provider.max_tokens,
  );
  return { ask, meter, capReached: () => capped };
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function asText(result: SimplifyRounds): string {
  const { applied, metrics } = result;
  const lines = [
    // The files read first: "1 patch over 2 files" read as one patch editing two.
    `AUREUS simplify: ${count(result.scope.length, 'file', 'files')} read, ${count(applied.kept.length, 'verified patch', 'verified patches')}${result.rounds > 1 ? ` in ${result.rounds} rounds` : ''}; ${result.deferred.length} more for the next run; ${count(result.dropped.length + applied.notKept.length, 'proposal', 'proposals')} dropped.`,
  ];
  applied.kept.forEach((patch, index) => {
    const { proposal, price } = patch;
    lines.push(
      `  ${index + 1}. ${proposal.title} (${proposal.path}:${proposal.line}, ${price.cost.total} points)`,
    );
  });
  if (result.stoppedAtBound)
    lines.push(
      `Stopped after ${result.rounds} rounds, each writing patches: run aureus simplify --apply again.`,
    );
  if (result.deferred.length > 0) lines.push('For the next run (they clash with a patch above):');
  for (const { proposal } of result.deferred)
    lines.push(`  - ${proposal.title} (${proposal.path}:${proposal.line})`);
  const drops = [...result.dropped, ...applied.notKept];
  if (drops.length > 0) lines.push('Dropped:');
  for (const { proposal, reason } of drops)
    lines.push(`  - ${proposal.title} (${proposal.path}:${proposal.line}): ${reason}`);
  for (const { pass, error } of result.failedPasses)
    lines.push(`  ! the ${pass} pass failed: ${error}`);
  lines.push(...declinedLines(result.declined));
  if (result.untracedEntries.length > 0)
    lines.push(
      'Public API kept whole (add a tsconfig outDir/rootDir that leads from the entry to its source to narrow it):',
    );
  for (const entry of result.untracedEntries) lines.push(`  - ${entry}`);
  if (result.unpatchedFiles > 0)
    lines.push(
      `Not patched: ${count(result.unpatchedFiles, 'Python, Go or Java file', 'Python, Go or Java files')} (reflexion writes patches for TypeScript and JavaScript only).`,
    );
  if (result.findings.length > 0) lines.push('In Python and Go (no patch yet; by hand):');
  for (const finding of result.findings)
    lines.push(`  - ${finding.title} (${finding.path}:${finding.line})`);
  if (result.skipped.length > 0) lines.push('Not read (no patch for them):');
  for (const { path, reason } of result.skipped) lines.push(`  - ${path}: ${reason}`);
  const percent = (value: number) => `${(value * 100).toFixed(1)} %`;
  lines.push(
    `Lines −${metrics.linesRemoved}, abstractions −${metrics.abstractionsRemoved}, complexity ${metrics.complexityBefore} → ${metrics.complexityAfter}: ${percent(metrics.reduction)} simpler (target ${percent(metrics.target)}: ${metrics.targetMet ? 'met' : 'not met'}).`,
    applied.kept.length === 0
      ? 'Nothing to write.'
      : applied.written
        ? 'Written to the working tree.'
        : 'Run aureus simplify --apply to write them (--format diff prints them as one patch).',
  );
  return `${lines.join('\n')}\n`;
}

/** Candidates shown with why they were left alone; the rest counted (json lists them all). */
const DECLINED_SHOWN = 10;

function declinedLines(declined: SimplifyRounds['declined']): string[] {
  if (declined.length === 0) return [];
  const more = declined.length - DECLINED_SHOWN;
  return [
    `Left alone (${count(declined.length, 'candidate', 'candidates')}):`,
    ...declined
      .slice(0, DECLINED_SHOWN)
      .map(({ title, path, line, reason }) => `  - ${title} (${path}:${line}): ${reason}`),
    ...(more > 0 ? [`  … and ${more} more (--format json lists them all)`] : []),
  ];
}

function asJson(result: SimplifyRounds) {
  const patch = ({
    proposal,
    reason,
  }: {
    proposal: { pass: string; title: string; path: string; line: number };
    reason?: string;
  }) => ({
    pass: proposal.pass,
    title: proposal.title,
    path: proposal.path,
    line: proposal.line,
    ...(reason === undefined ? {} : { reason }),
  });
  return {
    files: result.scope.length,
    patches: result.applied.kept.map((kept) => ({
      ...patch(kept),
      cost: kept.price.cost,
      diff: kept.patch,
    })),
    written: result.applied.written,
    rounds: result.rounds,
    stoppedAtBound: result.stoppedAtBound,
    deferred: result.deferred.map(patch),
    dropped: [...result.dropped, ...result.applied.notKept].map(patch),
    failedPasses: result.failedPasses,
    declined: result.declined,
    findings: result.findings,
    unpatchedFiles: result.unpatchedFiles,
    skipped: result.skipped,
    untracedEntries: result.untracedEntries,
    metrics: result.metrics,
  };
}
