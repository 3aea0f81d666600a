import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { ProbotOctokit } from 'probot';
import { APP_PERMISSIONS } from '../../../src/bot/app-events.js';
import type { AppSettings } from '../../../src/bot/app-settings.js';
import { type RunningApp, serveApp } from '../../../src/bot/serve-app.js';
import {
  type GitHubApiDouble,
  type Permissions,
  startGitHubApiDouble,
} from '../../support/github-api-double/index.js';
import { makeTempDir } from '../../support/temp-dir.js';

export const APP_ID = 4242;
export const APP_SLUG = 'aureus';
export const INSTALLATION_ID = 777;
/** The double's id for an app's bot account (state.ts botIdentityOf). */
export const APP_BOT_ID = APP_ID + 1_000_000;
export const WEBHOOK_SECRET = 'a-real-secret-for-the-tests-0123456789';
export const WEBHOOK_PATH = '/api/github/webhooks';

/** The longest timer Node.js keeps (about 24.8 days): a timer that never fires in a test. */
const NEVER_MS = 2 ** 31 - 1;

/** What the App gets when installed: the manifest's permissions, nothing more. */
const INSTALLED_PERMISSIONS: Permissions = { ...APP_PERMISSIONS };

export interface AppSession {
  readonly double: GitHubApiDouble;
  readonly app: RunningApp;
  readonly dataDir: string;
  /** Posts a webhook signed with the App's secret; returns the HTTP status. */
  send(event: string, payload: object, options?: SendOptions): Promise<number>;
  /** As `send`, with the text of the answer. */
  deliver(event: string, payload: object, options?: SendOptions): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  readonly status: number;
  readonly text: string;
}

export interface SendOptions {
  readonly deliveryId?: string;
  /** Sign with this secret instead of the App's (a forged delivery). */
  readonly secret?: string;
  /** Send exactly these headers for the signature (none, a sha1 one…). */
  readonly signatureHeaders?: Record<string, string>;
  /** The bytes sent, when they must differ from `JSON.stringify(payload)`. */
  readonly body?: string;
  readonly contentType?: string;
}

/**
 * The GitHub API double with AUREUS installed on `owner`, and the App served for real on
 * 127.0.0.1 by `serveApp` (the code `aureus serve` runs), with probot's retries and throttling
 * off so that a fault shows at once.
 */
export async function startAppSession(
  owner: string,
  /** What the organisation granted, when it is more than the manifest asks for. */
  permissions: Permissions = INSTALLED_PERMISSIONS,
): Promise<AppSession> {
  const double = await startGitHubApiDouble();
  double.addApp({ id: APP_ID, slug: APP_SLUG, permissions });
  double.addInstallation({
    id: INSTALLATION_ID,
    appId: APP_ID,
    account: { login: owner, type: 'Organization' },
    permissions,
  });
  const data = await makeTempDir('aureus-app-data');
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const settings: AppSettings = {
    appId: APP_ID,
    privateKey,
    webhookSecret: WEBHOOK_SECRET,
    port: 0,
    host: '127.0.0.1',
    webhookPath: WEBHOOK_PATH,
    githubApiUrl: double.url,
    dataDir: data.path,
    concurrency: 2,
    logLevel: 'silent',
    logFormat: 'json',
    production: false,
  };
  const app = await serveApp(settings, {
    toolVersion: '0.0.0-test',
    // The tests assert each delivery's own answer (200, 400, 500), which a busy machine may
    // reach after GitHub's 10 s: the 202 "late" acknowledgement would hide it.
    acknowledgeMs: NEVER_MS,
    // A function, not an options object: probot's own defaults would replace a `throttle` object
    // whole and switch throttling back on. Tests count requests; they need no spacing.
    Octokit: ProbotOctokit.defaults((options: { readonly throttle?: object }) => ({
      ...options,
      retry: { enabled: false },
      throttle: { ...options.throttle, enabled: false },
    })),
  });
  return {
    double,
    app,
    dataDir: data.path,
    send: async (event, payload, options = {}) =>
      (await deliver(app.url, event, payload, options)).status,
    deliver: (event, payload, options = {}) => deliver(app.url, event, payload, options),
    async close() {
      await app.stop();
      await double.close();
      await data.remove();
    },
  };
}

async function deliver(
  url: string,
  event: string,
  payload: object,
  options: SendOptions,
): Promise<Answer> {
  const body = options.body ?? JSON.stringify(payload);
  const signature = createHmac('sha256', options.secret ?? WEBHOOK_SECRET)
    .update(body)
    .digest('hex');
  const response = await fetch(`${url}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-github-event': event,
      'x-github-delivery': options.deliveryId ?? randomUUID(),
      ...(options.signatureHeaders ?? { 'x-hub-signature-256': `sha256=${signature}` }),
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}
