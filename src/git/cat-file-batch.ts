import { AureusError } from '../model/errors.js';
import { explainGitFailure } from './explain-git-failure.js';
import { spawnGit, waitForExit } from './git-runner.js';

/** An object as `git cat-file --batch` answered for it. */
export type StoredObject =
  | {
      readonly found: true;
      readonly type: string;
      readonly size: number;
      /** The object's bytes; absent when it is larger than the read limit. */
      readonly bytes?: Buffer;
    }
  | { readonly found: false };

/**
 * Reads many objects through two `git cat-file` processes, whatever their number: every id is
 * written to standard input at once and the answers are parsed as they stream back, so a change
 * of a thousand files costs two processes, not a thousand. `--batch-check` gives each object's
 * type and size first (handed to `onHeaders` before the contents are asked for); `--batch` then
 * reads only those within their limit (`maxBytes` of the id), so a blob over it (a vendored
 * bundle, a 500 MB dump) is neither streamed nor kept, on every run.
 */
export async function readObjects(
  cwd: string,
  ids: readonly string[],
  maxBytes: (id: string) => number,
  onHeaders?: (headers: ReadonlyMap<string, StoredObject>) => void,
): Promise<Map<string, StoredObject>> {
  const unique = [...new Set(ids)];
  const objects = new Map<string, StoredObject>();
  if (unique.length === 0) return objects;
  const headers = await runCatFile(cwd, '--batch-check', unique, new BatchParser());
  onHeaders?.(headers);
  const small = unique.filter((id) => {
    const header = headers.get(id);
    return header?.found === true && header.size <= maxBytes(id);
  });
  const bodies =
    small.length === 0
      ? new Map<string, StoredObject>()
      : await runCatFile(cwd, '--batch', small, new BatchParser(maxBytes));
  for (const id of unique) {
    const header = headers.get(id);
    if (header !== undefined) objects.set(id, bodies.get(id) ?? header);
  }
  return objects;
}

/** One `git cat-file <mode> --buffer` over `ids`, its answers checked one for one. */
async function runCatFile(
  cwd: string,
  mode: '--batch' | '--batch-check',
  ids: readonly string[],
  parser: BatchParser,
): Promise<Map<string, StoredObject>> {
  const args = ['cat-file', mode, '--buffer'];
  const child = spawnGit(cwd, args, 'pipe');
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => parser.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(`${ids.join('\n')}\n`);
  const exitCode = await waitForExit(child, args);
  if (exitCode !== 0) throw explainGitFailure(cwd, args, exitCode, stderr);
  const answers = parser.finish();
  if (answers.length !== ids.length) {
    throw new AureusError(
      `git cat-file answered ${answers.length} of ${ids.length} object requests.`,
      'run "git fsck" to check the repository, then try again.',
    );
  }
  const objects = new Map<string, StoredObject>();
  ids.forEach((id, index) => {
    const answer = answers[index];
    if (answer === undefined) return;
    if (answer.found && answer.id !== id) {
      throw new AureusError(
        `git cat-file answered for ${answer.id} when ${id} was asked for.`,
        'run "git fsck" to check the repository, then try again.',
      );
    }
    objects.set(id, answer.object);
  });
  return objects;
}

interface Answer {
  readonly id: string;
  readonly found: boolean;
  readonly object: StoredObject;
}

interface OpenBody {
  readonly id: string;
  readonly type: string;
  readonly size: number;
  /** Bytes still expected, counting the newline git writes after the contents. */
  remaining: number;
  /** Undefined when the object is over the limit and is being skipped. */
  readonly chunks: Buffer[] | undefined;
}

/**
 * A push parser for the batch format: `<id> <type> <size>\n<contents>\n` per found object
 * (no contents for `--batch-check`), `<input> missing\n` (or `ambiguous`) otherwise. Chunks may
 * split anywhere.
 */
class BatchParser {
  private readonly answers: Answer[] = [];
  private header: Buffer[] = [];
  private body: OpenBody | undefined;

  /** `maxBytes` undefined: `--batch-check` answers, headers with no contents after them. */
  constructor(private readonly maxBytes?: (id: string) => number) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      offset = this.body ? this.takeBody(chunk, offset, this.body) : this.takeHeader(chunk, offset);
    }
  }

  finish(): Answer[] {
    if (this.body || this.header.length > 0) {
      throw new AureusError(
        'git cat-file stopped in the middle of an object.',
        'run "git fsck" to check the repository, then try again.',
      );
    }
    return this.answers;
  }

  private takeHeader(chunk: Buffer, offset: number): number {
    const newline = chunk.indexOf(10, offset);
    if (newline === -1) {
      this.header.push(chunk.subarray(offset));
      return chunk.length;
    }
    this.header.push(chunk.subarray(offset, newline));
    const line = Buffer.concat(this.header).toString('latin1');
    this.header = [];
    this.openObject(line);
    return newline + 1;
  }

  private openObject(line: string): void {
    const [id = '', type = '', sizeText = ''] = line.split(' ');
    if (type === 'missing' || type === 'ambiguous' || sizeText === '') {
      this.answers.push({ id, found: false, object: { found: false } });
      return;
    }
    const size = Number(sizeText);
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new AureusError(
        `git cat-file printed an unreadable header "${line.slice(0, 100)}".`,
        'report this with your git version (git --version).',
      );
    }
    if (this.maxBytes === undefined) {
      this.answers.push({ id, found: true, object: { found: true, type, size } });
      return;
    }
    const chunks = size <= this.maxBytes(id) ? [] : undefined;
    this.body = { id, type, size, remaining: size + 1, chunks };
  }

  private takeBody(chunk: Buffer, offset: number, body: OpenBody): number {
    const take = Math.min(body.remaining, chunk.length - offset);
    body.chunks?.push(chunk.subarray(offset, offset + take));
    body.remaining -= take;
    if (body.remaining === 0) {
      const { id, type, size, chunks } = body;
      // The last byte is the newline git writes after every object's contents.
      const bytes = chunks ? Buffer.concat(chunks).subarray(0, size) : undefined;
      this.answers.push({
        id,
        found: true,
        object: { found: true, type, size, ...(bytes ? { bytes } : {}) },
      });
      this.body = undefined;
    }
    return offset + take;
  }
}
