/**
 * A path as git stores it: bytes. `text` is what the Change carries; `bytes` is what the file
 * system needs, because a name that is not valid UTF-8 cannot survive a round trip through text.
 */
export interface GitPath {
  readonly text: string;
  readonly bytes: Buffer;
  readonly validUtf8: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function toGitPath(bytes: Buffer): GitPath {
  // Copy: the bytes may be a view into a large git output buffer that should not stay alive.
  const own = Buffer.from(bytes);
  try {
    return { text: strictUtf8.decode(own), bytes: own, validUtf8: true };
  } catch {
    return { text: own.toString('utf8'), bytes: own, validUtf8: false };
  }
}
