import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Probot, type ProbotOctokit } from 'probot';
import type { AppSettings } from './app-settings.js';
import { createAureusApp } from './aureus-app.js';
import { webhookEndpoint } from './webhook-endpoint.js';

export interface ServeOptions {
  readonly toolVersion: string;
  /** Octokit for installations; tests turn retries and throttling off through it. */
  readonly Octokit?: typeof ProbotOctokit;
  /**
   * How long a delivery's handlers may run before it is acknowledged with 202 (default 9 s, under
   * GitHub's 10). Tests that assert a handler's own answer set it beyond any machine's load.
   */
  readonly acknowledgeMs?: number;
}

export interface RunningApp {
  /** `http://host:port`: webhooks go to `${url}${settings.webhookPath}`. */
  readonly url: string;
  /** Resolves once every queued evaluation has finished. */
  idle(): Promise<void>;
  /** Stops accepting webhooks, lets the queued work finish, then closes. */
  stop(): Promise<void>;
}

/**
 * `aureus serve`: the App behind a plain Node HTTP server. `POST <webhookPath>` is the webhook
 * endpoint (webhook-endpoint.ts): the body capped, its signature verified over the raw bytes
 * before anything is parsed (THREATS rows 1, 36), and an answer as soon as the handlers have
 * queued their work. probot's own middleware is not used: it reads any body whole, and answers
 * 202 when reading and verifying a forged one outlasts its timer. `GET /healthz` answers for
 * load balancers; anything else is 404. Port 0 picks a free port (tests, the load benchmark).
 */
export async function serveApp(settings: AppSettings, options: ServeOptions): Promise<RunningApp> {
  const probot = new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    baseUrl: settings.githubApiUrl,
    logLevel: settings.logLevel === 'silent' ? 'fatal' : settings.logLevel,
    logFormat: settings.logFormat,
    ...(options.Octokit === undefined ? {} : { Octokit: options.Octokit }),
  });
  const aureus = createAureusApp({
    appId: settings.appId,
    dataDir: settings.dataDir,
    concurrency: settings.concurrency,
    toolVersion: options.toolVersion,
  });
  await probot.load(aureus.app);
  const webhook = webhookEndpoint(probot, settings.webhookSecret, options.acknowledgeMs);
  const webhookPath = withoutTrailingSlash(settings.webhookPath);
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    if (request.method === 'POST' && pathOf(request) === webhookPath) {
      void webhook(request, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await listen(server, settings.port, settings.host);
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('the App server is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  probot.log.info(`AUREUS App ${options.toolVersion} listening on http://${host}:${address.port}`);
  return {
    url: `http://${host}:${address.port}`,
    idle: () => aureus.idle(),
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await aureus.idle();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The request's path without its query or trailing slashes, as probot's middleware read it. */
function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return withoutTrailingSlash(query < 0 ? url : url.slice(0, query));
}

function withoutTrailingSlash(path: string): string {
  return path.replace(/\/+$/, '') || '/';
}

function listen(server: Server, port: number, host: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(host === null ? { port } : { port, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
