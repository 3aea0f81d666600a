// Load test of the GitHub App (`aureus serve`): 20 repositories, each its own installation,
// 10 pull requests each, 200 `pull_request.opened` deliveries plus 20 redeliveries sent at once
// to the App on loopback, against the GitHub API double. Run with `npm run bench` (it builds
// first). probot's throttling stays on, as in production; its retries are off so a fault shows.
import { spawnSync } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ProbotOctokit } from 'probot';
import { APP_PERMISSIONS } from '../dist/bot/app-events.js';
import { serveApp } from '../dist/bot/serve-app.js';
import { loadAverage, machineLine, runTimeLine } from './process-timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** A smaller run for a quick look: AUREUS_LOAD_REPOSITORIES=2 AUREUS_LOAD_PULLS=3. */
const REPOSITORIES = Number(process.env.AUREUS_LOAD_REPOSITORIES ?? 20);
const PULLS_PER_REPOSITORY = Number(process.env.AUREUS_LOAD_PULLS ?? 10);
const REDELIVERIES = REPOSITORIES;
const CONCURRENCY = 2;
const APP_ID = 4242;
const WEBHOOK_SECRET = 'a-real-secret-for-the-load-test-0123456789';
const WEBHOOK_PATH = '/api/github/webhooks';
/** GitHub gives up on a delivery after 10 s; the acknowledgement must stay well under it. */
const ACK_LIMIT_MS = 10_000;
const SMALL_BUDGET_POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 60\n';

const start = process.hrtime.bigint();
const loadBefore = loadAverage();
const work = mkdtempSync(join(tmpdir(), 'aureus-app-load-'));

/** Same isolation as test/support/git-fixture.ts isolateGit: no user config, fixed identity. */
function isolateGit() {
  const home = join(work, 'home');
  mkdirSync(home);
  for (const name of Object.keys(process.env))
    if (name.startsWith('GIT_')) delete process.env[name];
  Object.assign(process.env, {
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Bench Author',
    GIT_AUTHOR_EMAIL: 'author@example.test',
    GIT_COMMITTER_NAME: 'Bench Committer',
    GIT_COMMITTER_EMAIL: 'committer@example.test',
    GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
    GIT_CEILING_DIRECTORIES: realpathSync(tmpdir()),
  });
}

function git(cwd, ...args) {
  const result = spawnSync('git', args, { cwd, env: process.env, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${result.stderr}`);
  return result.stdout.replace(/\n$/, '');
}

function write(dir, path, text) {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function commit(dir, message) {
  git(dir, 'add', '--all');
  git(dir, 'commit', '--quiet', '--no-verify', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** As test/action/support/pull-request-scenario.ts codeLines: a function of `lines` lines. */
function codeLines(name, lines) {
  const body = Array.from({ length: lines }, (_, index) => `  const v${index} = ${index};`);
  return `export function ${name}(): number {\n${body.join('\n')}\n  return 0;\n}\n`;
}

/**
 * The double is TypeScript under test/ and not part of dist/: bundle it with esbuild into
 * node_modules/.cache (so its few packages resolve), pointing its fixture loader at the
 * OpenAPI description in test/fixtures.
 */
async function loadDouble() {
  const outdir = join(root, 'node_modules', '.cache', 'aureus-bench');
  const outfile = join(outdir, `github-api-double-${process.pid}.mjs`);
  const fixtureModule = join(root, 'test', 'support', 'github-api-double', 'fixture.ts');
  await build({
    entryPoints: [join(root, 'test', 'support', 'github-api-double', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'error',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(fixtureModule).href) },
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** The first example payload of `event.action` from @octokit/webhooks-examples, copied. */
const examples = require('@octokit/webhooks-examples');
function webhookExample(event, action) {
  const found = examples
    .find((group) => group.name === event)
    ?.examples.find((example) => example.action === action);
  if (found === undefined) throw new Error(`no example payload for ${event}.${action}`);
  return structuredClone(found);
}

/** As test/bot/support/app-payloads.ts pullRequestPayload, for repository `repo`. */
function pullRequestPayload(repo, pull) {
  const payload = webhookExample('pull_request', 'opened');
  Object.assign(payload.repository, {
    id: repo.id,
    name: repo.repo,
    full_name: `${repo.owner}/${repo.repo}`,
    default_branch: 'main',
  });
  Object.assign(payload.repository.owner, { login: repo.owner });
  payload.installation = { id: repo.installationId, node_id: `bench-installation-${repo.index}` };
  Object.assign(payload.pull_request, { number: pull.number });
  Object.assign(payload.pull_request.base, { sha: repo.baseSha, ref: 'main' });
  Object.assign(payload.pull_request.head, { sha: pull.headSha, ref: `feature-${pull.number}` });
  payload.number = pull.number;
  return payload;
}

/** One real repository: policy with a small budget, a module, and 10 branches off main. */
function makeRepository(index) {
  const dir = join(work, `repo-${index}`);
  mkdirSync(dir);
  git(dir, 'init', '--quiet', '--initial-branch=main');
  write(dir, '.aureus/policy.yaml', SMALL_BUDGET_POLICY);
  write(dir, 'package.json', `{ "name": "bench-${index}", "type": "module" }\n`);
  write(dir, 'src/core.ts', codeLines('core', 3));
  write(dir, 'src/util.ts', codeLines('util', 6));
  const baseSha = commit(dir, 'base');
  const pulls = [];
  for (let number = 1; number <= PULLS_PER_REPOSITORY; number++) {
    git(dir, 'checkout', '--quiet', '-B', `feature-${number}`, baseSha);
    // Every third pull request goes over the block budget; the others stay within it.
    const lines = number % 3 === 0 ? 80 : 5 + number;
    write(dir, `src/feature${number}.ts`, codeLines(`feature${number}`, lines));
    pulls.push({ number, headSha: commit(dir, `feature ${number}`) });
  }
  git(dir, 'checkout', '--quiet', 'main');
  return {
    index,
    dir,
    owner: `bench-org-${index}`,
    repo: 'service',
    id: 700_000 + index,
    installationId: 9_000 + index,
    baseSha,
    pulls,
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    n: sorted.length,
  };
}

const f0 = (value) => (Number.isFinite(value) ? value.toFixed(0) : 'n/a');

async function main() {
  isolateGit();
  const { startGitHubApiDouble } = await loadDouble();
  const setupStart = performance.now();
  const repositories = Array.from({ length: REPOSITORIES }, (_, index) => makeRepository(index));
  const setupMs = performance.now() - setupStart;

  const double = await startGitHubApiDouble();
  double.addApp({ id: APP_ID, slug: 'aureus', permissions: { ...APP_PERMISSIONS } });
  for (const repo of repositories) {
    double.addInstallation({
      id: repo.installationId,
      appId: APP_ID,
      account: { login: repo.owner, type: 'Organization' },
      permissions: { ...APP_PERMISSIONS },
    });
    double.addRepository({
      owner: repo.owner,
      repo: repo.repo,
      gitDir: repo.dir,
      defaultBranch: 'main',
    });
    for (const pull of repo.pulls)
      double.addPullRequest({
        owner: repo.owner,
        repo: repo.repo,
        number: pull.number,
        baseSha: repo.baseSha,
        headSha: pull.headSha,
      });
  }

  // When each check run was first seen and when it was seen completed, to the millisecond at
  // which the double finished answering the request that created or concluded it. The double's
  // server is a private field of the class; a second 'request' listener only watches.
  const sentAt = new Map(); // head SHA -> ms the delivery was sent
  const runCreatedAt = new Map(); // head SHA -> ms
  const concludedAt = new Map(); // head SHA -> ms
  const repoByOwner = new Map(repositories.map((repo) => [repo.owner, repo]));
  const checkRunPath = /^\/repos\/([^/]+)\/([^/]+)\/check-runs(?:\/|$)/;
  double.server.on('request', (request, response) => {
    const match = checkRunPath.exec(request.url ?? '');
    if (match === null || request.method === 'GET') return;
    response.once('finish', () => {
      const now = performance.now();
      const repo = repoByOwner.get(decodeURIComponent(match[1]));
      if (repo === undefined) return;
      for (const run of double.checkRuns(repo.owner, repo.repo)) {
        if (!runCreatedAt.has(run.headSha)) runCreatedAt.set(run.headSha, now);
        if (run.status === 'completed' && !concludedAt.has(run.headSha))
          concludedAt.set(run.headSha, now);
      }
    });
  });

  const dataDir = join(work, 'app-data');
  mkdirSync(dataDir);
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const app = await serveApp(
    {
      appId: APP_ID,
      privateKey,
      webhookSecret: WEBHOOK_SECRET,
      port: 0,
      host: '127.0.0.1',
      webhookPath: WEBHOOK_PATH,
      githubApiUrl: double.url,
      dataDir,
      concurrency: CONCURRENCY,
      logLevel: 'fatal',
      logFormat: 'json',
      production: false,
    },
    {
      toolVersion: '0.0.0-bench',
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false } }),
    },
  );

  // Every delivery signed and serialised before the clock starts, so only the sending is timed.
  const deliveries = [];
  for (const repo of repositories)
    for (const pull of repo.pulls) {
      const body = JSON.stringify(pullRequestPayload(repo, pull));
      deliveries.push({
        id: randomUUID(),
        headSha: pull.headSha,
        body,
        signature: createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex'),
        redelivery: false,
      });
    }
  // One redelivery per repository (same delivery id, same bytes), spread through the batch.
  const originals = repositories.map(
    (_, index) => deliveries[index * PULLS_PER_REPOSITORY + (index % PULLS_PER_REPOSITORY)],
  );
  const batch = [...deliveries];
  originals.slice(0, REDELIVERIES).forEach((original, index) => {
    batch.splice(index * 11 + 7, 0, { ...original, redelivery: true });
  });

  let peakRss = process.memoryUsage().rss;
  const rssBefore = peakRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);

  const url = `${app.url}${WEBHOOK_PATH}`;
  const loadStart = performance.now();
  const acks = await Promise.all(
    batch.map(async (delivery) => {
      const sent = performance.now();
      if (!delivery.redelivery) sentAt.set(delivery.headSha, sent);
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': delivery.id,
          'x-hub-signature-256': `sha256=${delivery.signature}`,
        },
        body: delivery.body,
      });
      await response.arrayBuffer();
      return {
        status: response.status,
        ms: performance.now() - sent,
        redelivery: delivery.redelivery,
      };
    }),
  );
  const ackedMs = performance.now() - loadStart;
  await app.idle();
  const wallMs = performance.now() - loadStart;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  // ---- verification --------------------------------------------------------------------
  const failures = [];
  const badAcks = acks.filter((ack) => ack.status !== 200);
  if (badAcks.length > 0)
    failures.push(
      `${badAcks.length} deliveries answered ${[...new Set(badAcks.map((a) => a.status))].join(', ')}`,
    );
  const ack = stats(acks.map((a) => a.ms));
  if (ack.max >= ACK_LIMIT_MS) failures.push(`slowest acknowledgement ${f0(ack.max)} ms ≥ 10 s`);

  const conclusions = new Map();
  let missing = 0;
  let duplicated = 0;
  let internalErrors = 0;
  let commentProblems = 0;
  for (const repo of repositories) {
    const runs = double.checkRuns(repo.owner, repo.repo);
    for (const pull of repo.pulls) {
      const own = runs.filter((run) => run.headSha === pull.headSha);
      const completed = own.filter((run) => run.status === 'completed');
      if (completed.length === 0) missing += 1;
      if (own.length > 1) duplicated += 1;
      for (const run of completed) {
        conclusions.set(run.conclusion, (conclusions.get(run.conclusion) ?? 0) + 1);
        if (run.title === 'AUREUS internal error') internalErrors += 1;
      }
      const comments = double
        .issueComments(repo.owner, repo.repo, pull.number)
        .filter((comment) => comment.user === 'aureus[bot]');
      if (comments.length !== 1 || !comments[0].body.includes('<!-- aureus:ledger -->'))
        commentProblems += 1;
    }
  }
  const handled = REPOSITORIES * PULLS_PER_REPOSITORY - missing;
  if (missing > 0) failures.push(`${missing} head SHAs without a concluded check run`);
  if (duplicated > 0) failures.push(`${duplicated} head SHAs with more than one check run`);
  if (internalErrors > 0)
    failures.push(`${internalErrors} check runs concluded as internal errors`);
  if (commentProblems > 0)
    failures.push(`${commentProblems} pull requests without exactly one AUREUS comment`);
  const refused = ['invalid', 'unexpected', 'forbidden', 'unauthorized', 'response-violation'].map(
    (outcome) => [outcome, double.withOutcome(outcome).length],
  );
  for (const [outcome, count] of refused)
    if (count > 0) failures.push(`${count} ${outcome} requests on the double`);
  const requests = double.requests();
  const byOperation = new Map();
  for (const request of requests) {
    const key = request.operationId ?? request.path;
    byOperation.set(key, (byOperation.get(key) ?? 0) + 1);
  }

  const sendToConclusion = [];
  const inFlight = [];
  for (const [headSha, sent] of sentAt) {
    const done = concludedAt.get(headSha);
    if (done === undefined) continue;
    sendToConclusion.push(done - sent);
    const created = runCreatedAt.get(headSha);
    if (created !== undefined) inFlight.push(done - created);
  }
  const conclusion = stats(sendToConclusion);
  const running = stats(inFlight);

  const row = (label, s) => `| ${label} | ${s.n} | ${f0(s.p50)} | ${f0(s.p95)} | ${f0(s.max)} |`;
  console.log(
    [
      '',
      '## App load (aureus serve)',
      '',
      `${machineLine()}. Load average before: ${loadBefore}.`,
      `${REPOSITORIES} repositories (one installation each, own git repository: small TypeScript project, change budget warn 40 / block 60), ${PULLS_PER_REPOSITORY} pull requests each: ${deliveries.length} signed \`pull_request.opened\` deliveries + ${REDELIVERIES} redeliveries (same delivery id), all sent at once on loopback. App: serveApp, concurrency ${CONCURRENCY}, probot throttling on, retries off; GitHub API double in the same process.`,
      `Fixture setup (git): ${f0(setupMs)} ms.`,
      '',
      '| measure | n | p50 ms | p95 ms | max ms |',
      '|---|---:|---:|---:|---:|',
      row('HTTP acknowledgement (send → response read)', ack),
      row('send → check run concluded', conclusion),
      row('check run created → concluded (one job)', running),
      '',
      `- All ${batch.length} deliveries acknowledged in ${f0(ackedMs)} ms; slowest ${f0(ack.max)} ms (GitHub's limit: 10,000 ms): ${ack.max < ACK_LIMIT_MS ? 'met' : 'NOT met'}.`,
      `- Total wall time, first send → queue idle: ${(wallMs / 1000).toFixed(1)} s (${(deliveries.length / (wallMs / 1000)).toFixed(2)} pull requests/s).`,
      `- Peak RSS (sampled every 50 ms; App + double + Node in one process): ${(peakRss / 2 ** 20).toFixed(0)} MiB (${(rssBefore / 2 ** 20).toFixed(0)} MiB before the load).`,
      `- Handled: ${handled}/${deliveries.length} head SHAs with a concluded check run; ${duplicated} with more than one; conclusions ${[...conclusions].map(([k, v]) => `${k} ${v}`).join(', ')}.`,
      `- Comments: ${deliveries.length - commentProblems}/${deliveries.length} pull requests with exactly one AUREUS comment.`,
      `- Double: ${requests.length} requests; ${refused.map(([k, v]) => `${k} ${v}`).join(', ')}.`,
      `- Requests by operation: ${[...byOperation]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
      '',
      "Send → conclusion is measured from the moment each delivery was sent to the moment the double finished answering the check-run request that completed that head SHA (watched on the double's server, event-driven, no polling).",
      `Load average after: ${loadAverage()}.`,
      runTimeLine(start),
      '',
    ].join('\n'),
  );

  await app.stop();
  await double.close();
  if (failures.length > 0) {
    console.error(`App load test FAILED:\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  }
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
