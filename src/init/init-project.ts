import { lstat, mkdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { groupModules } from '../analysis/graph/policy-modules.js';
import { recordBaseline } from '../check/check-repository.js';
import { pathKinds } from '../critic/path-kinds.js';
import { runCritic } from '../critic/run-critic.js';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { BASELINE_PATH } from '../memory/baseline-file.js';
import { errnoCode } from '../memory/errno-code.js';
import { storePaths } from '../memory/store-paths.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { defaultPolicy } from '../policy/default-policy.js';
import { parsePolicy } from '../policy/parse-policy.js';
import { formatPolicyProblem } from '../policy/policy-problem.js';
import { summarizeAnalysis } from './analysis-summary.js';
import { type GeneratedPolicy, generatePolicy } from './generate-policy.js';
import { inferProject } from './infer-project.js';
import { layeringRules } from './layering-rules.js';
import type { ProjectIntelligence } from './project-intelligence.js';
import { renderGeneratedPolicy } from './render-generated-policy.js';
import { refuseLinkedStore } from './store-folder.js';
import { surveyProject } from './survey-project.js';
import { unifiedDiff } from './unified-diff.js';

export interface InitOptions {
  /** The clock; the machine's when absent. Tests pass one so ages do not drift. */
  readonly now?: Date;
  /** Folder that paths in messages are shown relative to. */
  readonly cwd: string;
  readonly toolVersion: string;
  readonly onProgress?: (done: number, total: number) => void;
}

/** What is at `.aureus/policy.yaml` compared with the generated text. */
export type ExistingPolicy =
  | { readonly kind: 'none' }
  | { readonly kind: 'identical' }
  | { readonly kind: 'different'; readonly diff: string };

/** Everything `aureus init` would do, computed without writing anything. */
export interface InitPlan {
  readonly intelligence: ProjectIntelligence;
  readonly generated: GeneratedPolicy;
  /** The policy file's text: YAML with the reason beside every generated value. */
  readonly text: string;
  /** The policy's path as shown to the user. */
  readonly shownPath: string;
  readonly existing: ExistingPolicy;
}

export type BaselineOutcome =
  | { readonly kind: 'not-needed' }
  | { readonly kind: 'recorded'; readonly findings: number }
  | { readonly kind: 'kept' };

/**
 * `aureus init`, read-only half: surveys the repository, infers the project, generates its
 * policy and compares it with the policy already there. Never writes.
 */
export async function planInit(root: string, options: InitOptions): Promise<InitPlan> {
  await refuseLinkedStore(root, options.cwd);
  const design = defaultPolicy();
  const { survey, analysis } = await surveyProject(root, design, {
    now: options.now ?? new Date(),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const intelligence = inferProject(survey);
  // Today's findings as the design's rules see them, with the core where init found it and
  // the module rules it will write.
  const rules = layeringRules(intelligence.core.value, intelligence.layering.value);
  const judged: Policy = {
    ...design,
    modules: Object.fromEntries(
      [...rules].map(([name, rule]) => [name, { type_only_allowed: false, ...rule.value }]),
    ),
    paths: { ...design.paths, core: [...intelligence.core.value.globs] },
  };
  const modules = groupModules(analysis.graph.nodes, judged.paths.core);
  const findings = runCritic({ policy: judged, project: { ...analysis, modules } });
  const summary = summarizeAnalysis(analysis.facts, findings, pathKinds(judged, analysis).isCore);
  const generated = generatePolicy(intelligence, summary);
  const { name, type, maturity } = intelligence;
  const text = renderGeneratedPolicy(generated, [
    `AUREUS policy for ${name.value} (${type.value}, ${maturity.value}), written by \`aureus init\`.`,
    'Beside each generated value: why it has that value. Edit freely: `aureus init` never',
    'overwrites this file. Every setting with its default: `aureus policy show`.',
  ]);
  const path = storePaths(root).policy;
  const shownPath = relative(options.cwd, path) || path;
  const parsed = parsePolicy(text, shownPath);
  if (!parsed.ok) {
    throw new AureusError(
      `the generated policy does not read back: ${parsed.problems.map(formatPolicyProblem).join('; ')}`,
      'report this as a bug in AUREUS, with the output of `aureus init --dry-run`.',
    );
  }
  const current = await readExisting(path, shownPath);
  const existing: ExistingPolicy =
    current === undefined
      ? { kind: 'none' }
      : current === text
        ? { kind: 'identical' }
        : {
            kind: 'different',
            diff: unifiedDiff(current, text, [`${shownPath} (yours)`, `${shownPath} (generated)`]),
          };
  return { intelligence, generated, text, shownPath, existing };
}

/**
 * `aureus init`, writing half: writes the planned policy where there was none and, for a legacy
 * project without a baseline, records today's findings as the baseline. A policy that exists
 * is never replaced, whatever it holds: the user's edits win.
 */
export async function applyInit(
  root: string,
  plan: InitPlan,
  options: InitOptions,
): Promise<BaselineOutcome> {
  const paths = storePaths(root);
  // Again: the folder may have changed since the plan was made.
  await refuseLinkedStore(root, options.cwd);
  const now = await readExisting(paths.policy, plan.shownPath);
  if (plan.existing.kind !== 'none' || now !== undefined) {
    throw new AureusError(
      `${plan.shownPath} already exists; aureus init never overwrites a policy.`,
      'compare it with `aureus init --dry-run`, edit it by hand, or delete it and run aureus init again.',
    );
  }
  await mkdir(paths.dir, { recursive: true });
  await writeFileAtomic(paths.policy, plan.text);
  if (!plan.generated.baseline.value) return { kind: 'not-needed' };
  if (await lstat(join(root, BASELINE_PATH)).catch(() => undefined)) return { kind: 'kept' };
  const findings = await recordBaseline(root, {
    cwd: options.cwd,
    toolVersion: options.toolVersion,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  return { kind: 'recorded', findings };
}

/** The policy file's text, or undefined when there is none; a link or a folder is an error. */
async function readExisting(path: string, shown: string): Promise<string | undefined> {
  const stats = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return undefined;
  if (!stats.isFile()) {
    throw new AureusError(
      `${shown} is not a regular file (a link, folder or device).`,
      `replace it with the policy file, or remove it and run aureus init again.`,
    );
  }
  return readFile(path, 'utf8');
}
