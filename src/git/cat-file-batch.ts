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
 * Reads many objects through ONE `git cat-file --batch-command` process, whatever their number:
 * every id is written to standard input at once and the answers are parsed as they stream back,
 * so a change of a thousand files costs one process, not a thousand. Each object's type and size
 * come first (`info`, handed to `onHeaders` before the contents are asked for); the same process
 * then reads only those within their limit (`contents`, `maxBytes` of the id), so a blob over it
 * (a vendored bundle, a 500 MB dump) is neither streamed nor kept, on every run. A git older than
 * 2.36 has no `--batch-command`: it is then asked with `--batch-check` and `--batch`, two
 * processes, the same answers.
 */
export async function readObjects(
  cwd: string,
  ids: readonly string[],
  maxBytes: (id: string) => number,
  onHeaders?: (headers: ReadonlyMap<string, StoredObject>) => void,
): Promise<Map<string, StoredObject>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<string, StoredObject>();
  if (batchCommandMissing.has(cwd)) return readInTwo(cwd, unique, maxBytes, onHeaders);
  const read = await readInOne(cwd, unique, maxBytes, onHeaders);
  if (read !== OLD_GIT) return read;
  batchCommandMissing.add(cwd);
  return readInTwo(cwd, unique, maxBytes, onHeaders);
}

/** Where git refused `--batch-command` once (git < 2.36): not asked again by this process. */
const batchCommandMissing = new Set<string>();
const OLD_GIT = Symbol('git without --batch-command');

/**
 * `info` for every id, then `contents` for those within their limit, in one process: with
 * `--buffer` git answers each batch at its `flush`, so the contents are asked for only once the
 * sizes are known. OLD_GIT when this git does not know `--batch-command`. However it ends, git is
 * not left waiting for commands.
 */
async function readInOne(
  cwd: string,
  ids: readonly string[],
  maxBytes: (id: string) => number,
  onHeaders?: (headers: ReadonlyMap<string, StoredObject>) => void,
): Promise<Map<string, StoredObject> | typeof OLD_GIT> {
  const args = ['cat-file', '--batch-command', '--buffer'];
  const child = spawnGit(cwd, args, 'pipe');
  let stderr = '';
  const infoParser = new BatchParser();
  let parser = infoParser;
  let headersRead: () => void = () => undefined;
  const headersDone = new Promise<'answered'>((resolve) => {
    headersRead = () => resolve('answered');
  });
  // An answer AUREUS cannot parse stops git; it is thrown once git has exited.
  let unparsable: unknown;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (unparsable !== undefined) return;
    try {
      parser.push(chunk);
    } catch (error) {
      unparsable = error;
      child.kill('SIGKILL');
    }
    if (parser === infoParser && parser.count() >= ids.length) headersRead();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  child.stdin?.on('error', () => undefined);
  child.stdin?.write(`${ids.map((id) => `info ${id}`).join('\n')}\nflush\n`);
  const exit = waitForExit(child, args);
  let exited = false;
  try {
    const first = await Promise.race([headersDone, exit]);
    if (unparsable !== undefined) throw unparsable;
    if (first !== 'answered') {
      exited = true;
      // git stopped before it answered every `info`: an old git, or a failure to explain.
      if (first === 129 && /batch-command/.test(stderr)) return OLD_GIT;
      if (first !== 0) throw explainGitFailure(cwd, args, first, stderr);
      throw answeredTooFew(infoParser.count(), ids.length);
    }
    const headers = matchAnswers(ids, checkedCount(infoParser.finish(), ids.length));
    onHeaders?.(headers);
    const small = ids.filter((id) => {
      const header = headers.get(id);
      return header?.found === true && header.size <= maxBytes(id);
    });
    parser = new BatchParser(maxBytes);
    if (small.length > 0) {
      child.stdin?.write(`${small.map((id) => `contents ${id}`).join('\n')}\nflush\n`);
    }
    child.stdin?.end();
    const exitCode = await exit;
    exited = true;
    if (unparsable !== undefined) throw unparsable;
    if (exitCode !== 0) throw explainGitFailure(cwd, args, exitCode, stderr);
    const bodies = matchAnswers(small, checkedCount(parser.finish(), small.length));
    const objects = new Map<string, StoredObject>();
    for (const id of ids) {
      const header = headers.get(id);
      if (header !== undefined) objects.set(id, bodies.get(id) ?? header);
    }
    return objects;
  } finally {
    // Its input closed in every case: an open pipe would keep this process alive.
    child.stdin?.destroy();
    if (!exited) {
      child.kill('SIGKILL');
      await exit.catch(() => undefined);
    }
  }
}

/** The same answers from `--batch-check`, then `--batch` for those within their limit. */
async function readInTwo(
  cwd: string,
  unique: readonly string[],
  maxBytes: (id: string) => number,
  onHeaders?: (headers: ReadonlyMap<string, StoredObject>) => void,
): Promise<Map<string, StoredObject>> {
  const objects = new Map<string, StoredObject>();
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
  return matchAnswers(ids, checkedCount(parser.finish(), ids.length));
}

function checkedCount(answers: Answer[], expected: number): Answer[] {
  if (answers.length !== expected) throw answeredTooFew(answers.length, expected);
  return answers;
}

function answeredTooFew(answered: number, asked: number): AureusError {
  return new AureusError(
    `git cat-file answered ${answered} of ${asked} object requests.`,
    'run "git fsck" to check the repository, then try again.',
  );
}

/** Each id's answer, in the order asked; an answer naming another object is a failure. */
function matchAnswers(
  ids: readonly string[],
  answers: readonly Answer[],
): Map<string, StoredObject> {
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

  /** Answers complete so far. */
  count(): number {
    return this.answers.length;
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
