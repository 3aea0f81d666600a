import { readFile } from 'node:fs/promises';
import * as core from '@actions/core';
import { createGitHubClient, type GitHubClient } from '../github/github-client.js';
import { AureusError } from '../model/errors.js';
import { toolVersion } from './tool-version.js';

/** The numeric id of `github-actions[bot]`, the account the job's GITHUB_TOKEN acts as. */
export const GITHUB_ACTIONS_BOT_ID = 41898282;

/** A variable the runner sets for every step; its absence means AUREUS runs outside one. */
export function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value === '')
    throw new AureusError(
      `${name} is not set.`,
      'run AUREUS as a step of a GitHub Actions workflow, which sets it.',
    );
  return value;
}

export async function eventPayload(env: NodeJS.ProcessEnv): Promise<unknown> {
  const path = required(env, 'GITHUB_EVENT_PATH');
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new AureusError(
      `cannot read the workflow event at ${path}: ${error instanceof Error ? error.message : String(error)}.`,
      'run AUREUS as a step of a GitHub Actions workflow (the runner writes GITHUB_EVENT_PATH).',
    );
  }
}

export function actionClient(token: string, env: NodeJS.ProcessEnv): GitHubClient {
  return createGitHubClient({
    token,
    baseUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
    userAgent: `aureus-action/${toolVersion()}`,
    warn: (message) => core.warning(message),
  });
}
