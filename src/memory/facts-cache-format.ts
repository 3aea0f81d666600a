import { createHash } from 'node:crypto';
import { ANALYZER_VERSION, type FileFacts, type Language } from '../model/facts.js';

/**
 * The text of one cached facts entry, as a loose file or as one line of a pack:
 * `{"key":"<blob>-<language>-v<version>","split":<n>,"facts":<facts>,"functions":<functions>,
 * "sha256":"<hex>"}` where the hash covers the text before `,"sha256":`. Hashing the bytes as
 * written (the journal does the same) keeps verification to one hash, and the key inside the
 * hashed text catches an entry copied or renamed to another blob's place.
 *
 * The functions (about 60 % of the bytes) are written apart, `<facts>` holding a 0 in their
 * place and `split` its length, so that a reader decodes them only when something asks for
 * them: a whole-repository run reads every file's imports and classes, but the functions of
 * only the files a change touches.
 */

/**
 * Bump when the entry text below changes. Entries of another layout sit in another folder, so
 * two AUREUS versions on one repository (the hook's, a global CLI) keep their own instead of
 * finding each other's unreadable and parsing everything again on every run.
 */
export const ENTRY_LAYOUT = 2;

const LANGUAGES: ReadonlySet<string> = new Set<Language>([
  'typescript',
  'tsx',
  'javascript',
  'python',
  'go',
  'java',
]);
// Git blob ids: SHA-1 (40 hex digits) or, in SHA-256 repositories, 64.
const BLOB_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** `,"sha256":"` + 64 hex digits + `"}`. */
const HASH_SUFFIX_LENGTH = 11 + 64 + 2;

export interface FactsKey {
  readonly blobSha: string;
  readonly language: Language;
}

export interface FactsEntry extends FactsKey {
  readonly facts: FileFacts;
}

/**
 * The key's text; throws on a malformed blob id or language. Both end up in file names, so this
 * check is also what keeps a hostile value from naming a path outside the cache.
 */
export function entryKey(blobSha: string, language: string): string {
  if (!BLOB_SHA.test(blobSha)) throw new TypeError(`not a git blob id: ${JSON.stringify(blobSha)}`);
  if (!LANGUAGES.has(language)) throw new TypeError(`not a language: ${JSON.stringify(language)}`);
  return `${blobSha}-${language}-v${ANALYZER_VERSION}`;
}

/** One entry without a newline. */
export function encodeEntry(key: string, facts: FileFacts): string {
  // Spread, then overridden: the placeholder keeps the functions' place among the keys.
  const rest = JSON.stringify({ ...facts, functions: 0 });
  const body = `{"key":"${key}","split":${rest.length},"facts":${rest},"functions":${JSON.stringify(facts.functions)}`;
  return `${body},"sha256":"${sha256hex(body)}"}`;
}

/**
 * The facts in an entry's text, or undefined when it is not a whole, intact entry for `key`.
 * Their `functions` are decoded on first use (see the layout above).
 */
export function decodeEntry(text: string, key: string): FileFacts | undefined {
  const entry = text.endsWith('\n') ? text.slice(0, -1) : text;
  const prefix = `{"key":"${key}","split":`;
  if (!entry.startsWith(prefix) || entry.length < prefix.length + HASH_SUFFIX_LENGTH) {
    return undefined;
  }
  const hashedEnd = entry.length - HASH_SUFFIX_LENGTH;
  const suffix = entry.slice(hashedEnd);
  if (!suffix.startsWith(',"sha256":"') || !suffix.endsWith('"}')) return undefined;
  if (suffix.slice(11, 11 + 64) !== sha256hex(entry.slice(0, hashedEnd))) return undefined;
  const split = /^(\d+),"facts":/.exec(entry.slice(prefix.length, prefix.length + 24));
  if (split?.[1] === undefined) return undefined;
  const factsStart = prefix.length + split[0].length;
  const factsEnd = factsStart + Number(split[1]);
  if (!entry.startsWith(FUNCTIONS_FIELD, factsEnd)) return undefined;
  try {
    const facts: unknown = JSON.parse(entry.slice(factsStart, factsEnd));
    if (!looksLikeFacts(facts, key)) return undefined;
    return withLazyFunctions(facts, entry.slice(factsEnd + FUNCTIONS_FIELD.length, hashedEnd));
  } catch {
    return undefined;
  }
}

const FUNCTIONS_FIELD = ',"functions":';

/**
 * `facts` whose `functions` (the placeholder's property, so the keys keep their order) is
 * parsed from `text` on first read. The checksum has vouched for `text`, which AUREUS wrote
 * with JSON.stringify, so the parse cannot fail.
 */
function withLazyFunctions(facts: FileFacts, text: string): FileFacts {
  let functions: FileFacts['functions'] | undefined;
  Object.defineProperty(facts, 'functions', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (functions === undefined) {
        const parsed: unknown = JSON.parse(text);
        functions = Array.isArray(parsed) ? parsed : [];
      }
      return functions;
    },
  });
  return facts;
}

/**
 * A shape check, not a validation: the checksum already says these are the bytes AUREUS wrote
 * under this analyzer version. It guards against a hand-made entry with a correct checksum.
 */
function looksLikeFacts(value: unknown, key: string): value is FileFacts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (!('language' in value) || typeof value.language !== 'string') return false;
  return (
    key.endsWith(`-${value.language}-v${ANALYZER_VERSION}`) &&
    'imports' in value &&
    Array.isArray(value.imports) &&
    'functions' in value &&
    value.functions === 0
  );
}

function sha256hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
