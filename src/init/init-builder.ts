import { lstat, mkdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { writeFileAtomic, writeNewFileAtomic } from '../memory/atomic-write.js';
import { errnoCode } from '../memory/errno-code.js';
import { storePaths } from '../memory/store-paths.js';
import { AureusError } from '../model/errors.js';
import { parsePolicy } from '../policy/parse-policy.js';
import { formatPolicyProblem } from '../policy/policy-problem.js';
import { BUILDER_WORKFLOW_PATH, builderWorkflow, pinnedAction } from './builder-workflow.js';
import { enableBuilderPolicy } from './enable-builder-policy.js';
import { refuseLinkedStore } from './store-folder.js';
import { workflowDifference } from './workflow-difference.js';

export interface BuilderInitOptions {
  /** `--action owner/repo@commit`: the AUREUS Action the workflow runs. */
  readonly action: string | undefined;
  /** `--force`: replace a workflow file that differs from the one init writes. */
  readonly force: boolean;
  readonly cwd: string;
}

/** What `aureus init --builder` did, for the command to say. */
export interface BuilderInitOutcome {
  readonly workflow: 'written' | 'identical' | 'replaced';
  readonly workflowPath: string;
  readonly policy: 'edited' | 'already';
  readonly policyPath: string;
  /** The label that starts the builder, from the policy as it now is. */
  readonly label: string;
}

/**
 * `aureus init --builder`: writes `.github/workflows/aureus-builder.yml` and sets
 * `integrations.app.builder: true` in the policy, which must exist (aureus init writes it
 * first). Nothing is read or written through a link the repository commits: `.aureus`,
 * `.github`, its `workflows` folder and the two files are checked with lstat, a new file is linked into
 * place only if the name is free, and a replaced one is renamed over (a rename replaces a link,
 * never follows it). A workflow that differs is kept unless `force`, with the difference named.
 */
export async function initBuilder(
  root: string,
  options: BuilderInitOptions,
): Promise<BuilderInitOutcome> {
  const action = pinnedAction(options.action);
  const shown = (path: string) => relative(options.cwd, path) || path;
  const policyPath = storePaths(root).policy;
  await refuseLinkedStore(root, options.cwd);
  const policyText = await readRegularFile(policyPath, shown(policyPath));
  if (policyText === undefined)
    throw new AureusError(
      `${shown(policyPath)} does not exist, and aureus init --builder turns the builder on in it.`,
      'run aureus init --builder --yes (it writes the policy first), or write the policy with aureus init.',
    );
  const enabled = enableBuilderPolicy(policyText, shown(policyPath));
  const parsed = parsePolicy(enabled.text, shown(policyPath));
  if (!parsed.ok)
    throw new AureusError(
      `${shown(policyPath)} does not validate, so aureus init --builder leaves it and the workflow unwritten: ${parsed.problems.map(formatPolicyProblem).join('; ')}`,
      `fix ${shown(policyPath)} (aureus policy validate), then run aureus init --builder again.`,
    );

  const workflowPath = join(root, BUILDER_WORKFLOW_PATH);
  const text = builderWorkflow(action);
  await ensureFolders(root, ['.github', '.github/workflows'], shown);
  const existing = await readRegularFile(workflowPath, shown(workflowPath));
  let workflow: BuilderInitOutcome['workflow'];
  if (existing === undefined) {
    if (!(await writeNewFileAtomic(workflowPath, text)))
      throw new AureusError(
        `${shown(workflowPath)} appeared while aureus init --builder was writing it.`,
        'run aureus init --builder again.',
      );
    workflow = 'written';
  } else if (existing === text) {
    workflow = 'identical';
  } else {
    if (!options.force)
      throw new AureusError(
        `${shown(workflowPath)} exists and differs from the builder workflow aureus init --builder writes: ${workflowDifference(existing, text)}. Nothing was written.`,
        `rerun with --force to replace it (aureus init --builder --dry-run shows the workflow), or edit it to match the README's "Builder workflow".`,
      );
    await writeFileAtomic(workflowPath, text);
    workflow = 'replaced';
  }
  if (enabled.changed) await writeFileAtomic(policyPath, enabled.text);
  return {
    workflow,
    workflowPath: shown(workflowPath),
    policy: enabled.changed ? 'edited' : 'already',
    policyPath: shown(policyPath),
    label: parsed.policy.integrations.app.builder_label,
  };
}

/** Creates each folder where missing; one that is a link or a file is an error. */
async function ensureFolders(
  root: string,
  folders: readonly string[],
  shown: (path: string) => string,
): Promise<void> {
  for (const folder of folders) {
    const path = join(root, folder);
    const stats = await lstat(path).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (stats === undefined) await mkdir(path);
    else if (!stats.isDirectory())
      throw new AureusError(
        `${shown(path)} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; AUREUS does not write through links.`,
        `replace ${shown(path)} with a folder, then run aureus init --builder again.`,
      );
  }
}

/** The file's text, or undefined when there is none; a link, folder or device is an error. */
async function readRegularFile(path: string, shown: string): Promise<string | undefined> {
  const stats = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return undefined;
  if (!stats.isFile())
    throw new AureusError(
      `${shown} is not a regular file (a link, folder or device); AUREUS neither reads nor writes through it.`,
      `remove ${shown}, then run aureus init --builder again.`,
    );
  return readFile(path, 'utf8');
}
