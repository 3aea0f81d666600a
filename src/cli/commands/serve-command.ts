import { readFileSync } from 'node:fs';
import { ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';

/**
 * `aureus serve`: the GitHub App. Settings come from the environment (APP_ID, PRIVATE_KEY or
 * PRIVATE_KEY_PATH, WEBHOOK_SECRET, …) and are checked before anything listens: no secret, or
 * probot's `development` secret in production, is an error (exit 2). Runs until SIGINT or
 * SIGTERM, then lets queued evaluations finish.
 */
export async function serveCommand(context: CommandContext): Promise<number> {
  const { readAppSettings } = await import('../../bot/app-settings.js');
  const settings = readAppSettings(
    process.env,
    (path) => readFileSync(path, 'utf8'),
    context.io.cwd,
  );
  const { serveApp } = await import('../../bot/serve-app.js');
  const running = await serveApp(settings, { toolVersion: context.version });
  context.io.stderr(`AUREUS App: webhooks at ${running.url}${settings.webhookPath}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  context.io.stderr('AUREUS App: stopping after the queued evaluations.\n');
  await running.stop();
  return ExitCode.pass;
}
