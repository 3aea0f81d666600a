import { runGit } from '../../git/git-runner.js';
import { resolveRunPath } from '../safety/path-authority.js';
import type { ToolDefinition, ToolResult } from '../tool-contract.js';
import { readText } from './file-access.js';
import type { ToolContext } from './tool-context.js';
import { inputChecker, isRefusal } from './tool-input.js';

const MAX_MATCHES = 100;
const MAX_LINE = 200;

const searchInput = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Plain text to find (no regular expression).',
    },
    path: {
      type: 'string',
      description: 'A folder or file to search in; the whole repository when left out.',
    },
  },
};

/**
 * search: a plain substring over the tracked and new files of the run's tree (what .gitignore
 * ignores left out), each file read through the path authority. A substring, not a regular
 * expression, so no query can make it run for long; matches and lines are capped.
 */
export function searchTool(context: ToolContext): ToolDefinition {
  const check = inputChecker<{ query: string; path?: string }>('search', searchInput);
  const scope = async (input: unknown) => {
    const checked = check(input);
    if (isRefusal(checked)) return checked;
    const place = await resolveRunPath(
      context.tree,
      checked.path ?? '',
      'read',
      context.isProtected,
    );
    return isRefusal(place) ? place : { query: checked.query, under: place.relative };
  };
  return {
    spec: {
      name: 'search',
      description: 'Finds lines holding a plain text in the repository.',
      inputSchema: searchInput,
    },
    tier: 0,
    phases: ['gather', 'act', 'verify'],
    preview: async (input) => {
      const found = await scope(input);
      return isRefusal(found) ? found : { kind: 'read' };
    },
    apply: async (input): Promise<ToolResult> => {
      const found = await scope(input);
      if (isRefusal(found)) return found;
      const listed = await runGit(context.tree, [
        'ls-files',
        '-z',
        '--cached',
        '--others',
        '--exclude-standard',
      ]);
      const paths = [...new Set(listed.stdout.toString('utf8').split('\0'))].filter(
        (path) =>
          path !== '' &&
          (found.under === '' || path === found.under || path.startsWith(`${found.under}/`)),
      );
      paths.sort();
      const matches: { path: string; line: number; text: string }[] = [];
      for (const path of paths) {
        if (matches.length >= MAX_MATCHES) break;
        const place = await resolveRunPath(context.tree, path, 'read', context.isProtected);
        if (isRefusal(place) || place.kind !== 'file') continue;
        const read = await readText(place.absolute, context.maxFileBytes);
        if (!read.ok || !read.text.includes(found.query)) continue;
        for (const [index, line] of read.text.split('\n').entries()) {
          if (!line.includes(found.query)) continue;
          matches.push({ path, line: index + 1, text: line.slice(0, MAX_LINE) });
          if (matches.length >= MAX_MATCHES) break;
        }
      }
      return { ok: true, output: { matches, truncated: matches.length >= MAX_MATCHES } };
    },
  };
}
