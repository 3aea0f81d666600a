import { open, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { runGit } from '../../git/git-runner.js';
import { AureusError } from '../../model/errors.js';
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
 * The home folder's credential files: a command of the run gets a home of its own, but one that
 * names an absolute path reads the real one, so their values are scrubbed like the tree's.
 */
const HOME_SECRET_FILES = [
  '.git-credentials',
  '.config/git/credentials',
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.yarnrc.yml',
];

/**
 * Every secret value AUREUS can know before the model says anything, so the scrubber removes
 * each (and its encodings) from the first text on: the environment's, git configuration's
 * (extra headers, credentials, passwords in URLs, and the store its credential helper names),
 * those of the tree's credential files and those of the home folder's.
 */
export async function knownSecrets(sources: SecretSources): Promise<string[]> {
  const named = new Set((sources.alsoSecret ?? []).map((name) => name.toUpperCase()));
  const fromEnv = Object.entries(sources.env).flatMap(([name, value]) =>
    value !== undefined && (holdsSecret(name) || named.has(name.toUpperCase())) ? [value] : [],
  );
  const home = sources.env.HOME ?? homedir();
  const xdg = sources.env.XDG_CONFIG_HOME;
  const outside = [
    ...HOME_SECRET_FILES.map((name) => join(home, name)),
    ...(xdg === undefined || xdg === '' ? [] : [join(xdg, 'git', 'credentials')]),
  ];
  const config = await gitConfigEntries(sources.tree);
  return [
    ...fromEnv,
    ...secretsOfGitConfig(config),
    ...(await secretsOfFiles(sources.tree)),
    ...(await secretsOutside([...outside, ...credentialStores(config, home)])),
  ];
}

/** `credential.helper` as `store --file <path>`: that file holds `https://user:token@host` lines. */
function credentialStores(config: readonly ConfigEntry[], home: string): string[] {
  return config.flatMap(({ key, value }) => {
    if (!/^credential\.(?:.*\.)?helper$/i.test(key)) return [];
    const file = /^store\s+--file[=\s]\s*(?:"([^"]+)"|(\S+))/.exec(value.trim());
    const path = file?.[1] ?? file?.[2];
    if (path === undefined) return [];
    const expanded = path.startsWith('~/') ? join(home, path.slice(2)) : path;
    return isAbsolute(expanded) ? [expanded] : [];
  });
}

/** Files outside the tree that the user, not the repository, keeps: read when regular. */
async function secretsOutside(paths: readonly string[]): Promise<string[]> {
  const values: string[] = [];
  for (const path of new Set(paths)) {
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isFile()) continue;
    const text = await readCredentialFile(path, path);
    values.push(...assignedSecrets(text), ...urlPasswords(text));
  }
  return values;
}

/**
 * A credential file's text, reading at most MAX_SECRET_FILE_BYTES of it. A longer one stops the
 * run before it starts (fail closed): the values past the limit would be unknown to the
 * scrubber, so padding a `.env` would hide them. `shown` names the file in the refusal.
 */
async function readCredentialFile(path: string, shown: string): Promise<string> {
  const handle = await open(path, 'r').catch(() => null);
  if (handle === null) return '';
  try {
    const buffer = Buffer.alloc(MAX_SECRET_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_SECRET_FILE_BYTES)
      throw new AureusError(
        `${shown} is larger than ${MAX_SECRET_FILE_BYTES} bytes (256 KiB), the most AUREUS reads of a credential file: the secrets past that could not be kept from the model, so the run does not start.`,
        `keep only credentials in ${shown} (or move the rest to a file of another name), then start the run again.`,
      );
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

interface ConfigEntry {
  readonly key: string;
  readonly value: string;
}

async function gitConfigEntries(tree: string): Promise<ConfigEntry[]> {
  const listed = await runGit(tree, ['config', '--list', '-z'], { okExitCodes: [0, 1] });
  return listed.stdout
    .toString('utf8')
    .split('\0')
    .map((entry) => {
      const newline = entry.indexOf('\n');
      return newline < 0
        ? { key: entry, value: '' }
        : { key: entry.slice(0, newline), value: entry.slice(newline + 1) };
    });
}

/**
 * A credential helper git ships, with only its own options: it names where the secrets are kept
 * (the store's file is read for them), it holds none itself. Its value is printed by every
 * `git config --list`, so counting it as a secret would remove its slices (`credential`, the
 * temp folder's path) from all the run's output. An inline helper (`!f() { echo password=…; }`)
 * stays a secret whole.
 */
const NAMED_HELPER =
  /^(?:store|cache|manager|manager-core|osxkeychain|libsecret|wincred)(?:\s+--(?:file|timeout|socket)(?:=|\s+)(?:"[^"]*"|\S+))*$/;

function secretsOfGitConfig(config: readonly ConfigEntry[]): string[] {
  return config.flatMap(({ key, value }) => {
    const pointer = /^credential\.(?:.*\.)?helper$/i.test(key) && NAMED_HELPER.test(value.trim());
    const secret =
      !pointer && (holdsSecret(key) || /extraheader$/i.test(key) || /^credential\./i.test(key))
        ? [value, ...headerCredential(value)]
        : [];
    return [...secret, ...urlPasswords(key), ...urlPasswords(value)];
  });
}

/**
 * `AUTHORIZATION: basic dXNlcjpwYXNz` → the credential alone, as it may be printed alone, and
 * for `basic` what it encodes (`user:pass`, and `pass`): a command that decodes the header
 * (actions/checkout's) prints the token itself.
 */
function headerCredential(value: string): string[] {
  const words = value.trim().split(/\s+/);
  const last = words.pop();
  if (last === undefined || words.length === 0) return [];
  if (words.at(-1)?.toLowerCase() !== 'basic') return [last];
  const decoded = Buffer.from(last, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return [last, decoded, ...(colon < 0 ? [] : [decoded.slice(colon + 1)])];
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
    values.push(...assignedSecrets(await readCredentialFile(place.absolute, path)));
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
