import { lstat, mkdir, readdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ResolvedPath, resolveRunPath } from '../safety/path-authority.js';
import type { ActionPreview, ToolDefinition, ToolResult } from '../tool-contract.js';
import { readText, writeText } from './file-access.js';
import type { ToolContext } from './tool-context.js';
import { inputChecker, isRefusal } from './tool-input.js';
import { truncateText } from './truncate-text.js';

type Failure = Extract<ToolResult, { ok: false }>;
const MAX_ENTRIES = 1000;
const PATH = {
  type: 'string',
  description: 'Path relative to the repository root, / between folders.',
};

const pathInput = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: { path: PATH },
};
const contentInput = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'content'],
  properties: {
    path: PATH,
    content: { type: 'string', description: 'The whole new text of the file.' },
  },
};
const readInput = {
  type: 'object',
  additionalProperties: false,
  required: ['path'],
  properties: {
    path: PATH,
    line_numbers: { type: 'boolean', description: 'Prefix each line with its number.' },
  },
};

const failure = (error: string, hint: string): Failure => ({ ok: false, error, hint });

/** The tools that read and change files of the run's tree, each through the path authority. */
export function fileTools(context: ToolContext): ToolDefinition[] {
  return [
    fileRead(context),
    listDir(context),
    fileWrite(context),
    createFile(context),
    fileDelete(context),
  ];
}

function fileRead(context: ToolContext): ToolDefinition {
  const check = inputChecker<{ path: string; line_numbers?: boolean }>('file_read', readInput);
  const place = async (input: unknown) => {
    const checked = check(input);
    if (isRefusal(checked)) return checked;
    const resolved = await resolveRunPath(context.tree, checked.path, 'read', context.isProtected);
    return isRefusal(resolved) ? resolved : { ...checked, resolved };
  };
  return {
    spec: {
      name: 'file_read',
      description: 'Reads a text file of the repository.',
      inputSchema: readInput,
    },
    tier: 0,
    phases: ['gather', 'act', 'verify'],
    preview: async (input) => {
      const found = await place(input);
      return isRefusal(found) ? found : { kind: 'read' };
    },
    apply: async (input) => {
      const found = await place(input);
      if (isRefusal(found)) return found;
      if (found.resolved.kind !== 'file') return notAFile(found.resolved);
      const read = await readText(found.resolved.absolute, context.maxFileBytes);
      if (!read.ok) return failure(`${found.resolved.relative}: ${read.error}`, read.hint);
      const text = found.line_numbers === true ? numbered(read.text) : read.text;
      return {
        ok: true,
        output: {
          path: found.resolved.relative,
          content: truncateText(text, context.maxResultBytes),
        },
      };
    },
  };
}

function listDir(context: ToolContext): ToolDefinition {
  const check = inputChecker<{ path: string }>('list_dir', pathInput);
  const place = async (input: unknown) => {
    const checked = check(input);
    if (isRefusal(checked)) return checked;
    return resolveRunPath(context.tree, checked.path, 'read', context.isProtected);
  };
  return {
    spec: {
      name: 'list_dir',
      description: 'Lists a folder of the repository ("" or "." for its root).',
      inputSchema: pathInput,
    },
    tier: 0,
    phases: ['gather', 'act', 'verify'],
    preview: async (input) => {
      const found = await place(input);
      return isRefusal(found) ? found : { kind: 'read' };
    },
    apply: async (input) => {
      const found = await place(input);
      if (isRefusal(found)) return found;
      if (found.kind !== 'folder')
        return failure(`${found.relative} is not a folder.`, 'list a folder.');
      const names = (await readdir(found.absolute))
        .filter((name) => name.toLowerCase() !== '.git')
        .sort();
      const entries = [];
      for (const name of names.slice(0, MAX_ENTRIES)) {
        const stats = await lstat(join(found.absolute, name));
        const kind = stats.isSymbolicLink()
          ? 'link'
          : stats.isDirectory()
            ? 'folder'
            : stats.isFile()
              ? 'file'
              : 'other';
        entries.push(kind === 'file' ? { name, kind, bytes: stats.size } : { name, kind });
      }
      return {
        ok: true,
        output: { path: found.relative, entries, truncated: names.length > MAX_ENTRIES },
      };
    },
  };
}

/** A tool that changes one file: its preview computes before and after, its apply writes. */
function fileChange(
  context: ToolContext,
  name: 'file_write' | 'create_file' | 'file_delete',
  description: string,
  how: {
    tier: 1 | 2;
    schema: Readonly<Record<string, unknown>>;
    expects: 'file' | null;
    after: (content: string | undefined) => string | null;
  },
  write: (resolved: ResolvedPath, after: string | null) => Promise<void>,
): ToolDefinition {
  const check = inputChecker<{ path: string; content?: string }>(name, how.schema);
  const effect = async (input: unknown) => {
    const checked = check(input);
    if (isRefusal(checked)) return checked;
    if (
      checked.content !== undefined &&
      Buffer.byteLength(checked.content) > context.maxFileBytes
    ) {
      return failure(
        `the content is over the ${context.maxFileBytes}-byte limit of one file.`,
        'write a smaller file.',
      );
    }
    const resolved = await resolveRunPath(context.tree, checked.path, 'write', context.isProtected);
    if (isRefusal(resolved)) return resolved;
    if (how.expects === null && resolved.kind !== null) {
      return failure(
        `${resolved.relative} already exists.`,
        'use file_write to change a file that exists.',
      );
    }
    if (how.expects === 'file' && resolved.kind !== 'file') return notAFile(resolved);
    let before: string | null = null;
    if (resolved.kind === 'file') {
      const read = await readText(resolved.absolute, context.maxFileBytes);
      if (!read.ok) return failure(`${resolved.relative}: ${read.error}`, read.hint);
      before = read.text;
    }
    return { resolved, before, after: how.after(checked.content) };
  };
  return {
    spec: { name, description, inputSchema: how.schema },
    tier: how.tier,
    phases: ['act'],
    preview: async (input): Promise<ActionPreview | Failure> => {
      const found = await effect(input);
      if (isRefusal(found)) return found;
      return {
        kind: 'files',
        effects: [{ path: found.resolved.relative, before: found.before, after: found.after }],
      };
    },
    apply: async (input) => {
      const found = await effect(input);
      if (isRefusal(found)) return found;
      await write(found.resolved, found.after);
      return { ok: true, output: { path: found.resolved.relative, done: name } };
    },
  };
}

const fileWrite = (context: ToolContext) =>
  fileChange(
    context,
    'file_write',
    'Replaces the whole text of a file that exists.',
    { tier: 1, schema: contentInput, expects: 'file', after: (content) => content ?? '' },
    (resolved, after) => writeText(resolved.absolute, after ?? '', 'replace'),
  );

const createFile = (context: ToolContext) =>
  fileChange(
    context,
    'create_file',
    'Creates a new file (its folders too); it must not exist.',
    { tier: 1, schema: contentInput, expects: null, after: (content) => content ?? '' },
    async (resolved, after) => {
      await mkdir(dirname(resolved.absolute), { recursive: true });
      await writeText(resolved.absolute, after ?? '', 'create');
    },
  );

const fileDelete = (context: ToolContext) =>
  fileChange(
    context,
    'file_delete',
    'Deletes a file.',
    { tier: 2, schema: pathInput, expects: 'file', after: () => null },
    (resolved) => unlink(resolved.absolute),
  );

function notAFile(resolved: ResolvedPath): Failure {
  return resolved.kind === null
    ? failure(
        `${resolved.relative} does not exist.`,
        'check the path with list_dir, or use create_file for a new file.',
      )
    : failure(`${resolved.relative} is not a regular file.`, 'name a file.');
}

function numbered(text: string): string {
  return text
    .split('\n')
    .map((line, index) => `${String(index + 1).padStart(5)}  ${line}`)
    .join('\n');
}
