import { runGit } from '../git/git-runner.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';

/**
 * The deterministic checks a builder run's commits pass before anything is pushed (THREATS
 * rows 11–13): what the model wrote is data, judged here by git and the base policy alone.
 */

/** Most commits one run may publish: a run commits once per verification and at its end. */
const MAX_COMMITS = 200;
/** Paths a run never changes, whatever the policy says, compared in lower case. */
const NEVER_PUBLISHED = ['.github/workflows/**', '.husky/**', '.aureus/**'];
const LINK_MODE = '120000';
const SUBMODULE_MODE = '160000';
const OVERRIDE_TRAILER = /^\s*aureus-override\s*:/im;

/**
 * Fetches the bundle's one branch into a private ref of the run (never a branch, never
 * FETCH_HEAD's consumers): `git bundle verify` first, which also proves the commits it needs
 * (the start commit) are here. Returns the branch's commit, or why the bundle is refused.
 */
export async function importBundle(
  root: string,
  bundle: string,
  runId: string,
): Promise<{ readonly head: string } | { readonly refusal: string }> {
  const verified = await runGit(root, ['bundle', 'verify', '--quiet', bundle], {
    okExitCodes: [0, 1, 128],
  });
  if (verified.exitCode !== 0)
    return {
      refusal: `the run's bundle does not verify against this repository: ${lastLine(verified.stderr)}.`,
    };
  const heads = (await runGit(root, ['bundle', 'list-heads', bundle])).stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
  const [only] = heads;
  const match =
    only === undefined ? null : /^([0-9a-f]{40,64}) (refs\/heads\/aureus\/\S+)$/.exec(only);
  if (heads.length !== 1 || match?.[1] === undefined || match[2] === undefined)
    return {
      refusal: `the run's bundle must hold exactly one aureus/ branch; it holds ${heads.length} refs.`,
    };
  const ref = `refs/aureus/publish/${runId}`;
  await runGit(root, [
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-write-fetch-head',
    bundle,
    `+${match[2]}:${ref}`,
  ]);
  return { head: match[1] };
}

/** Everything wrong with the run's commits `start..head`, under the base policy; [] when none. */
export async function commitRefusals(
  root: string,
  range: { readonly start: string; readonly head: string },
  policy: Policy,
  policyPath: string,
): Promise<string[]> {
  const { start, head } = range;
  // One more than may be published is enough to refuse: a bundle can hold any number.
  const listed = (
    await runGit(root, [
      'rev-list',
      '--parents',
      `--max-count=${MAX_COMMITS + 1}`,
      `${start}..${head}`,
    ])
  ).stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(' '));
  if (listed.length === 0) return ['the run committed nothing after its start commit.'];
  if (listed.length > MAX_COMMITS)
    return [`the run has more than ${MAX_COMMITS} commits, the most one run may publish.`];
  const commits = new Set(listed.map(([commit]) => commit));
  const refusals: string[] = [];
  for (const [commit, ...parents] of listed) {
    if (parents.length !== 1)
      refusals.push(
        `commit ${commit?.slice(0, 12)} is a merge; a run publishes a straight line of commits.`,
      );
    for (const parent of parents)
      if (parent !== start && !commits.has(parent))
        refusals.push(
          `commit ${commit?.slice(0, 12)} does not descend from the start commit ${start.slice(0, 12)}.`,
        );
  }
  if (refusals.length > 0) return refusals;
  return [
    ...(await entryRefusals(root, range, policy, policyPath)),
    ...(await messageRefusals(root, range)),
  ];
}

/** Every path any of the run's commits touches: protected, link, submodule, caps. */
async function entryRefusals(
  root: string,
  { start, head }: { readonly start: string; readonly head: string },
  policy: Policy,
  policyPath: string,
): Promise<string[]> {
  const raw = (
    await runGit(root, [
      'log',
      '--raw',
      '-z',
      '--no-renames',
      '--no-abbrev',
      '--format=',
      `${start}..${head}`,
    ])
  ).stdout.toString('utf8');
  const fields = raw.split('\0');
  // Every commit's entries, not only the end result: a link or a workflow added and removed
  // again would still be in the history the push publishes.
  const entries: { readonly path: string; readonly mode: string; readonly blob: string }[] = [];
  for (let index = 0; index < fields.length; index++) {
    const meta = /^\s*:\d{6} (\d{6}) [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(fields[index] ?? '');
    const path = fields[index + 1];
    if (meta?.[1] === undefined || meta[2] === undefined || path === undefined) continue;
    entries.push({ path, mode: meta[1], blob: meta[2] });
    index++;
  }
  const touched = new Set(entries.map((entry) => entry.path));
  const byPolicy = globMatcher([...policy.permissions.protected_paths, policyPath]);
  const always = globMatcher(NEVER_PUBLISHED);
  const refusals: string[] = [];
  for (const path of touched) {
    const lower = path.toLowerCase();
    if (always(lower) || byPolicy(path) || byPolicy(lower))
      refusals.push(
        `${path} is a protected path (permissions.protected_paths, workflows, hooks, AUREUS's policy).`,
      );
    else if (lower.split('/').some((segment) => segment.startsWith('.git')))
      refusals.push(
        `${path} is one of git's own files (.git*), which the builder never publishes.`,
      );
  }
  for (const { path, mode } of entries) {
    if (mode === LINK_MODE)
      refusals.push(`${path} is a symbolic link; the builder publishes none.`);
    if (mode === SUBMODULE_MODE)
      refusals.push(`${path} is a submodule; the builder publishes none.`);
  }
  const caps = policy.cost_thresholds;
  if (touched.size > caps.max_patch_files)
    refusals.push(
      `the run touches ${touched.size} files, over cost_thresholds.max_patch_files (${caps.max_patch_files}).`,
    );
  const bytes = await blobBytes(
    root,
    entries.map((entry) => entry.blob),
  );
  if (bytes > caps.max_patch_bytes)
    refusals.push(
      `the run writes ${bytes} bytes, over cost_thresholds.max_patch_bytes (${caps.max_patch_bytes}).`,
    );
  return refusals;
}

/** The size of every blob the run wrote (a deletion writes none). */
async function blobBytes(root: string, blobs: readonly string[]): Promise<number> {
  const written = blobs.filter((blob) => !/^0+$/.test(blob));
  if (written.length === 0) return 0;
  const sizes = (
    await runGit(root, ['cat-file', '--batch-check=%(objectsize)'], {
      input: `${written.join('\n')}\n`,
    })
  ).stdout.toString('utf8');
  return sizes
    .split('\n')
    .filter((line) => line !== '')
    .reduce((sum, line) => sum + (Number.parseInt(line, 10) || 0), 0);
}

/** An override is a person's decision at commit time: a run's commit may not claim one. */
async function messageRefusals(
  root: string,
  { start, head }: { readonly start: string; readonly head: string },
): Promise<string[]> {
  const messages = (
    await runGit(root, ['log', '-z', '--format=%H%n%B', `${start}..${head}`])
  ).stdout
    .toString('utf8')
    .split('\0')
    .filter((message) => message !== '');
  return messages
    .filter((message) => OVERRIDE_TRAILER.test(message))
    .map(
      (message) =>
        `commit ${message.slice(0, 12)} carries an Aureus-Override trailer, which only a person may give.`,
    );
}

function lastLine(text: string): string {
  return (
    text
      .trim()
      .split('\n')
      .at(-1)
      ?.replace(/^(error|fatal): /, '') ?? 'git gave no reason'
  );
}
