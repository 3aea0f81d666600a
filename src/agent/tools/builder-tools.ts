import type { RunPlace } from '../safety/checkpoints.js';
import type { ToolDefinition } from '../tool-contract.js';
import { fileTools } from './file-tools.js';
import { gitTools } from './git-tools.js';
import { searchTool } from './search-tool.js';
import { type CommandSettings, shellTool } from './shell-tool.js';
import type { ToolContext } from './tool-context.js';

/**
 * Every tool the builder offers for a run. web_fetch and git_push (tier 3) are not among
 * them: nothing is fetched or pushed from a local run, so they are never offered;
 * `unofferedTool` says why when a model asks for one anyway.
 */
export function builderTools(
  context: ToolContext,
  run: RunPlace,
  commands: CommandSettings,
): ToolDefinition[] {
  return [
    ...fileTools(context),
    searchTool(context),
    ...gitTools(context, run),
    shellTool(context, run, commands),
  ];
}

const UNOFFERED: Readonly<Record<string, string>> = {
  web_fetch: 'a local run reaches no network: web_fetch is a tier-3 tool, never offered here.',
  git_push:
    'a local run never pushes: git_push is a tier-3 tool; the run leaves its work on its own branch for you to review.',
};

/** Why a tool the model named is not offered, when it is one AUREUS knows of. */
export function unofferedTool(name: string): string | undefined {
  return UNOFFERED[name];
}
