import { isAbsolute, resolve } from 'node:path';
import { AureusError } from '../model/errors.js';

/** probot's (pino's) log levels. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
export type LogFormat = 'json' | 'pretty';

/** What `aureus serve` runs with, read from the environment once and checked. */
export interface AppSettings {
  readonly appId: number;
  /** The App's private key as PEM text, whichever way it was given. */
  readonly privateKey: string;
  readonly webhookSecret: string;
  readonly port: number;
  /** The address to listen on; null: Node's default (every interface). */
  readonly host: string | null;
  readonly webhookPath: string;
  /** The REST API base URL, without a trailing slash. */
  readonly githubApiUrl: string;
  /** An absolute folder for the App's caches and ledger. */
  readonly dataDir: string;
  readonly concurrency: number;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  /** `NODE_ENV=production`: the stricter rules apply. */
  readonly production: boolean;
}

/**
 * `process.env` as it really is. Not `NodeJS.ProcessEnv`: probot narrows its LOG_LEVEL and
 * LOG_FORMAT to the valid values, but a shell can set anything, and this is where that is checked.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

interface Problem {
  readonly message: string;
  readonly hint: string;
}

const LOG_LEVELS: readonly LogLevel[] = [
  'trace',
  'debug',
  'info',
  'warn',
  'error',
  'fatal',
  'silent',
];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
/** probot's fallback when no secret is set: public, so it authenticates nothing (THREATS row 1). */
const PROBOT_DEFAULT_SECRET = 'development';
/** GitHub's advice is a high-entropy secret; below this a production secret is a typo or a toy. */
const MIN_PRODUCTION_SECRET_LENGTH = 16;
/** The analysis is CPU-bound and holds file contents in memory: past this more jobs only wait longer. */
const MAX_CONCURRENCY = 32;
const PEM_KINDS = ['RSA PRIVATE KEY', 'PRIVATE KEY'] as const;

/**
 * Reads the settings of `aureus serve` from `env`, reading `PRIVATE_KEY_PATH` through
 * `readFile`; relative paths are taken from `cwd`, which must be absolute (so that nothing here
 * depends on the process's own working directory).
 *
 * @throws AureusError listing every problem found, each with how to fix it. Secret values
 *   (the webhook secret, the private key) never appear in it.
 */
export function readAppSettings(
  env: Environment,
  readFile: (path: string) => string,
  cwd: string,
): AppSettings {
  if (!isAbsolute(cwd)) throw new RangeError(`cwd must be an absolute path, not ${cwd}.`);
  const problems: Problem[] = [];
  const production = env.NODE_ENV === 'production';
  const value = (name: string): string | undefined => {
    const text = env[name]?.trim();
    return text === undefined || text === '' ? undefined : text;
  };
  const settings: AppSettings = {
    appId: readAppId(value('APP_ID'), problems),
    privateKey: readPrivateKey(env, readFile, cwd, problems),
    webhookSecret: readWebhookSecret(env.WEBHOOK_SECRET, production, problems),
    port: readInteger(value('PORT'), 'PORT', { fallback: 3000, min: 1, max: 65535 }, problems),
    host: value('HOST') ?? null,
    webhookPath: readWebhookPath(value('WEBHOOK_PATH'), problems),
    githubApiUrl: readApiUrl(apiUrlSetting(value, problems), production, problems),
    dataDir: resolve(cwd, value('AUREUS_DATA_DIR') ?? '.aureus-app'),
    concurrency: readInteger(
      value('AUREUS_CONCURRENCY'),
      'AUREUS_CONCURRENCY',
      // Two: one job per core of the small machine the App is sized for.
      { fallback: 2, min: 1, max: MAX_CONCURRENCY },
      problems,
    ),
    logLevel: readChoice(value('LOG_LEVEL'), 'LOG_LEVEL', LOG_LEVELS, 'info', problems),
    // JSON for log collectors in production, readable lines for a person at a terminal.
    logFormat: readChoice(
      value('LOG_FORMAT'),
      'LOG_FORMAT',
      LOG_FORMATS,
      production ? 'json' : 'pretty',
      problems,
    ),
    production,
  };
  if (problems.length === 1 && problems[0] !== undefined)
    throw new AureusError(problems[0].message, problems[0].hint);
  if (problems.length > 1)
    throw new AureusError(
      `aureus serve found ${problems.length} problems in its environment:\n${bullets(problems.map((p) => p.message))}`,
      `fix each of them:\n${bullets(problems.map((p) => p.hint))}`,
    );
  return settings;
}

function bullets(lines: readonly string[]): string {
  return lines.map((line) => `  - ${line}`).join('\n');
}

function readAppId(text: string | undefined, problems: Problem[]): number {
  const hint =
    'set APP_ID to the App ID shown on the GitHub App settings page (a number such as 123456).';
  if (text === undefined) {
    problems.push({ message: 'APP_ID is not set.', hint });
    return 0;
  }
  const id = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) {
    problems.push({ message: `APP_ID is ${JSON.stringify(text)}, not a positive integer.`, hint });
    return 0;
  }
  return id;
}

function readPrivateKey(
  env: Environment,
  readFile: (path: string) => string,
  cwd: string,
  problems: Problem[],
): string {
  const inline = env.PRIVATE_KEY?.trim() || undefined;
  const path = env.PRIVATE_KEY_PATH?.trim() || undefined;
  if (inline !== undefined && path !== undefined) {
    // Two keys leave it unclear which one signs; probot would silently take PRIVATE_KEY.
    problems.push({
      message: 'both PRIVATE_KEY and PRIVATE_KEY_PATH are set.',
      hint: 'keep one of them: PRIVATE_KEY with the key itself, or PRIVATE_KEY_PATH with its file.',
    });
    return '';
  }
  if (inline !== undefined) {
    const key = pemOf(inline);
    if (key === undefined)
      problems.push({
        message: 'PRIVATE_KEY is not a PEM private key, nor the base64 of one.',
        hint: 'set PRIVATE_KEY to the contents of the .pem file downloaded from the GitHub App settings page (or its base64 on one line).',
      });
    return key ?? '';
  }
  if (path !== undefined) {
    const file = resolve(cwd, path);
    let text: string;
    try {
      text = readFile(file);
    } catch (error) {
      problems.push({
        message: `PRIVATE_KEY_PATH points to ${file}, which cannot be read (${errorCode(error)}).`,
        hint: 'set PRIVATE_KEY_PATH to the .pem file downloaded from the GitHub App settings page.',
      });
      return '';
    }
    const key = pemOf(text.trim());
    if (key === undefined)
      problems.push({
        message: `PRIVATE_KEY_PATH points to ${file}, which does not hold a PEM private key.`,
        hint: 'point PRIVATE_KEY_PATH at the .pem file downloaded from the GitHub App settings page, not a public key or certificate.',
      });
    return key ?? '';
  }
  problems.push({
    message: 'no private key: neither PRIVATE_KEY nor PRIVATE_KEY_PATH is set.',
    hint: 'generate a private key on the GitHub App settings page and set PRIVATE_KEY_PATH to its .pem file (or PRIVATE_KEY to its contents).',
  });
  return '';
}

/**
 * The PEM text of a private key given as PEM, as PEM with literal `\n`, on one line, or as the
 * base64 of any of these (as probot accepts it, and also base64 wrapped over several lines as
 * `base64` prints it); undefined when it is none of them.
 */
function pemOf(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  const decoded = isBase64(compact) ? Buffer.from(compact, 'base64').toString('utf8').trim() : text;
  const pem = decoded.replace(/\\n/g, '\n');
  for (const kind of PEM_KINDS) {
    const begin = `-----BEGIN ${kind}-----`;
    const end = `-----END ${kind}-----`;
    if (!pem.startsWith(begin) || !pem.endsWith(end)) continue;
    const body = pem.slice(begin.length, -end.length);
    // Base64 and line breaks only: an encrypted key has headers, and AUREUS cannot decrypt it.
    if (!/^[\sA-Za-z0-9+/=]+$/.test(body)) continue;
    if (pem.includes('\n')) return pem;
    // A key pasted on one line lost its line breaks; PEM readers want 64-character lines back.
    const lines = body.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
    return [begin, ...lines, end].join('\n');
  }
  return undefined;
}

function isBase64(text: string): boolean {
  return (
    /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64').toString('base64') === text
  );
}

function errorCode(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string')
    return error.code;
  return error instanceof Error ? error.name : 'unknown error';
}

function readWebhookSecret(
  secret: string | undefined,
  production: boolean,
  problems: Problem[],
): string {
  const hint =
    'generate a secret (for example `openssl rand -hex 32`), enter it as the webhook secret on the GitHub App settings page and set WEBHOOK_SECRET to it.';
  // Refuse to start without one (THREATS rule 1): unsigned webhooks could be forged by anyone.
  if (secret === undefined || secret.trim() === '') {
    problems.push({ message: 'WEBHOOK_SECRET is not set.', hint });
    return '';
  }
  if (production && secret === PROBOT_DEFAULT_SECRET)
    problems.push({
      message: "WEBHOOK_SECRET is probot's public default value, refused in production.",
      hint,
    });
  else if (production && secret.length < MIN_PRODUCTION_SECRET_LENGTH)
    problems.push({
      message: `WEBHOOK_SECRET has fewer than ${MIN_PRODUCTION_SECRET_LENGTH} characters, refused in production.`,
      hint,
    });
  return secret;
}

function readInteger(
  text: string | undefined,
  name: string,
  range: { readonly fallback: number; readonly min: number; readonly max: number },
  problems: Problem[],
): number {
  if (text === undefined) return range.fallback;
  const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (number >= range.min && number <= range.max) return number;
  problems.push({
    message: `${name} is ${JSON.stringify(text)}, not an integer from ${range.min} to ${range.max}.`,
    hint: `set ${name} to an integer from ${range.min} to ${range.max}, or unset it for ${range.fallback}.`,
  });
  return range.fallback;
}

function readChoice<T extends string>(
  text: string | undefined,
  name: string,
  allowed: readonly T[],
  fallback: T,
  problems: Problem[],
): T {
  if (text === undefined) return fallback;
  const found = allowed.find((candidate) => candidate === text);
  if (found !== undefined) return found;
  problems.push({
    message: `${name} is ${JSON.stringify(text)}.`,
    hint: `set ${name} to one of ${allowed.join(', ')}, or unset it for ${fallback}.`,
  });
  return fallback;
}

function readWebhookPath(text: string | undefined, problems: Problem[]): string {
  if (text === undefined) return '/api/github/webhooks';
  // Matched against the request path: a relative path, a query or a fragment would never match.
  if (text.startsWith('/') && !/[\s?#]/.test(text)) return text;
  problems.push({
    message: `WEBHOOK_PATH is ${JSON.stringify(text)}, not a path starting with /.`,
    hint: 'set WEBHOOK_PATH to the path of the webhook URL, such as /api/github/webhooks.',
  });
  return '/api/github/webhooks';
}

/**
 * The API's URL and the setting it came from: GITHUB_API_URL, else probot's own GitHub
 * Enterprise Server settings, GHE_HOST (and GHE_PROTOCOL, https by default), which a probot user
 * has set already, as `<protocol>://<host>/api/v3`. Both set and naming different servers is
 * refused: the App would call one and its user would believe it calls the other.
 */
function apiUrlSetting(
  value: (name: string) => string | undefined,
  problems: Problem[],
): { readonly text: string; readonly name: string } | undefined {
  const explicit = value('GITHUB_API_URL');
  const host = value('GHE_HOST');
  if (host === undefined)
    return explicit === undefined ? undefined : { text: explicit, name: 'GITHUB_API_URL' };
  const protocol = value('GHE_PROTOCOL') ?? 'https';
  const name = 'GHE_HOST (with GHE_PROTOCOL)';
  if (!/^https?$/.test(protocol) || /[/\\\s@?#]/.test(host)) {
    problems.push({
      message: 'GHE_HOST or GHE_PROTOCOL is not what probot expects.',
      hint: "set GHE_HOST to the server's host name alone (github.example.com, with :port if any) and GHE_PROTOCOL to https or http, or set GITHUB_API_URL instead.",
    });
    return undefined;
  }
  const derived = `${protocol}://${host}/api/v3`;
  if (explicit !== undefined && explicit.replace(/\/+$/, '') !== derived) {
    problems.push({
      message: `GITHUB_API_URL and GHE_HOST name different servers (${derived} from GHE_HOST).`,
      hint: 'unset one of them, or make GITHUB_API_URL the https://<GHE_HOST>/api/v3 of the same server.',
    });
    return undefined;
  }
  return { text: derived, name };
}

function readApiUrl(
  setting: { readonly text: string; readonly name: string } | undefined,
  production: boolean,
  problems: Problem[],
): string {
  const fallback = 'https://api.github.com';
  if (setting === undefined) return fallback;
  const { text, name } = setting;
  const hint =
    name === 'GITHUB_API_URL'
      ? 'set GITHUB_API_URL to the REST API base URL: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server.'
      : "set GHE_HOST to the server's host name and GHE_PROTOCOL to https, or set GITHUB_API_URL instead.";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The value is not echoed: a mistyped URL may carry a token.
    problems.push({ message: `${name} is not a URL.`, hint });
    return fallback;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push({ message: `${name} uses ${url.protocol}, not http: or https:.`, hint });
    return fallback;
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    // The App authenticates with its own tokens; credentials in the URL would end up in logs.
    problems.push({
      message: `${name} has credentials, a query or a fragment.`,
      hint: `remove everything after the path (and any user:password@) from ${name}.`,
    });
    return fallback;
  }
  // Installation tokens travel in headers; in production only a loopback test double may be plain http.
  if (production && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    problems.push({
      message: `${name} uses plain http to ${url.hostname}, refused in production.`,
      hint: 'use the https:// URL of the API.',
    });
    return fallback;
  }
  return url.href.replace(/\/+$/, '');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
