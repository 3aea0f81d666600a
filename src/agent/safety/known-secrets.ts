import { readFile } from 'node:fs/promises';
import { runGit } from '../../git/git-runner.js';
import { resolveRunPath } from './path-authority.js';
import { holdsSecret } from './secret-names.js';

/** Files that hold credentials by convention: their secret-named values are learnt up front. */
const SECRET_FILE =
  /(?:^|\/)(?:\.env(?:\.[^/]*)?|[^/]*\.env|\.npmrc|\.yarnrc(?:\.yml)?|\.pypirc|\.netrc|\.git-credentials|credentials(?:\.[a-z]+)?)$/i;
const MAX_SECRET_FILE_BYTES = 256 * 1024;

export interface SecretSources {
  /** The run's tree: its secret files, and git's configuration as seen from it. */
  readonly tree: string;
  readonly env: NodeJS.ProcessEnv;
  /** Variables that hold a secret whatever their name (the model's key variable). */
  readonly alsoSecret?: readonly string[];
}

/**
 * Every secret value AUREUS can know before the model says anything, so the scrubber removes
 * each (and its encodings) from the first text on: the environment's, git configuration's
 * (extra headers, credentials, passwords in URLs) and those of the tree's credential files.
 */
export async function knownSecrets(sources: SecretSources): Promise<string[]> {
  const named = new Set((sources.alsoSecret ?? []).map((name) => name.toUpperCase()));
  const fromEnv = Object.entries(sources.env).flatMap(([name, value]) =>
    value !== undefined && (holdsSecret(name) || named.has(name.toUpperCase())) ? [value] : [],
  );
  return [
    ...fromEnv,
    ...(await secretsOfGitConfig(sources.tree)),
    ...(await secretsOfFiles(sources.tree)),
  ];
}

async function secretsOfGitConfig(tree: string): Promise<string[]> {
  const listed = await runGit(tree, ['config', '--list', '-z'], { okExitCodes: [0, 1] });
  return listed.stdout
    .toString('utf8')
    .split('\0')
    .flatMap((entry) => {
      const newline = entry.indexOf('\n');
      const key = newline < 0 ? entry : entry.slice(0, newline);
      const value = newline < 0 ? '' : entry.slice(newline + 1);
      const secret =
        holdsSecret(key) || /extraheader$/i.test(key) || /^credential\./i.test(key)
          ? [value, ...headerCredential(value)]
          : [];
      return [...secret, ...urlPasswords(key), ...urlPasswords(value)];
    });
}

/** `AUTHORIZATION: basic dXNlcjpwYXNz` → the credential alone, as it may be printed alone. */
function headerCredential(value: string): string[] {
  const last = value.trim().split(/\s+/).pop();
  return last === undefined || last === value ? [] : [last];
}

function urlPasswords(text: string): string[] {
  return [...text.matchAll(/:\/\/([^/\s:@]+):([^/\s@]+)@/g)].flatMap((match) =>
    match[1] !== undefined && match[2] !== undefined ? [match[2], `${match[1]}:${match[2]}`] : [],
  );
}

async function secretsOfFiles(tree: string): Promise<string[]> {
  const listed = await runGit(tree, [
    'ls-files',
    '-z',
    '--cached',
    '--others',
    '--exclude-standard',
  ]);
  const paths = listed.stdout
    .toString('utf8')
    .split('\0')
    .filter((path) => SECRET_FILE.test(path));
  const values: string[] = [];
  for (const path of new Set(paths)) {
    const place = await resolveRunPath(tree, path, 'read', () => false);
    if (!('kind' in place) || place.kind !== 'file') continue;
    const text = await readFile(place.absolute, 'utf8').catch(() => '');
    if (text.length <= MAX_SECRET_FILE_BYTES) values.push(...assignedSecrets(text));
  }
  return values;
}

/** Values of `name = value`, `name: value` and `.netrc`'s `password value` with a secret name. */
export function assignedSecrets(text: string): string[] {
  const values: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const assignment = /^\s*(?:export\s+)?([^\s=:#]+(?::[^\s=#]+)?)\s*[=:]\s*(.*?)\s*$/.exec(line);
    const netrc = /\bpassword\s+(\S+)/.exec(line);
    if (netrc?.[1] !== undefined) values.push(netrc[1]);
    if (assignment?.[1] === undefined || assignment[2] === undefined) continue;
    if (!holdsSecret(assignment[1])) continue;
    values.push(assignment[2].replace(/^(["'])(.*)\1$/, '$2'));
  }
  return values;
}
