import { detectLanguage } from '../../src/analysis/detect-language.js';
import type {
  BlobKind,
  Change,
  ChangedFile,
  FileStatus,
  FileVersion,
} from '../../src/model/change.js';
import type { PricedChange } from '../../src/model/cost.js';
import type { FileFacts } from '../../src/model/facts.js';
import type { Policy } from '../../src/model/policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { priceChange } from '../../src/pricing/index.js';
import { createFactParser, type ParseFacts } from '../../src/scan/fact-parsers.js';

/** One side of a file: its text, or a blob without text (binary, too-large, symlink, submodule). */
export type SideSpec = string | { readonly kind: Exclude<BlobKind, 'text'>; readonly size: number };

export interface FileSpec {
  readonly path: string;
  readonly oldPath?: string;
  readonly base?: SideSpec;
  readonly head?: SideSpec;
  /** Inferred when left out: renamed with oldPath, added/deleted by the missing side, else modified. */
  readonly status?: FileStatus;
}

/** A Change as git would report it, built by hand. */
export function changeOf(files: readonly FileSpec[]): Change {
  return {
    source: 'range',
    baseSha: 'b'.repeat(40),
    headSha: 'h'.repeat(40),
    files: files.map(changedFile),
    complete: true,
    notes: [],
  };
}

function changedFile(spec: FileSpec): ChangedFile {
  const status = spec.status ?? inferredStatus(spec);
  const basePath = spec.oldPath ?? spec.path;
  return {
    status,
    path: spec.path,
    ...(spec.oldPath === undefined ? {} : { oldPath: spec.oldPath, similarity: 90 }),
    ...(spec.base === undefined ? {} : { base: versionOf(basePath, spec.base) }),
    ...(spec.head === undefined ? {} : { head: versionOf(spec.path, spec.head) }),
  };
}

function inferredStatus(spec: FileSpec): FileStatus {
  if (spec.oldPath !== undefined) return 'renamed';
  if (spec.base === undefined) return 'added';
  return spec.head === undefined ? 'deleted' : 'modified';
}

const MODES: Readonly<Record<BlobKind, string>> = {
  text: '100644',
  binary: '100644',
  'too-large': '100644',
  unreadable: '100644',
  symlink: '120000',
  submodule: '160000',
};

function versionOf(path: string, side: SideSpec): FileVersion {
  if (typeof side !== 'string') {
    return {
      path,
      blobSha: `${side.kind}-${side.size}`,
      mode: MODES[side.kind],
      kind: side.kind,
      size: side.size,
    };
  }
  const size = Buffer.byteLength(side);
  return {
    path,
    blobSha: `text-${size}`,
    mode: MODES.text,
    kind: 'text',
    size,
    text: side,
    validUtf8: true,
  };
}

let parser: Promise<ParseFacts> | undefined;

/** Facts of each side of the change, from the real extractors, keyed as priceChange expects. */
export async function factsOfChange(change: Change) {
  parser ??= createFactParser('typescript', 0);
  const parse = await parser;
  const baseFacts = new Map<string, FileFacts>();
  const headFacts = new Map<string, FileFacts>();
  for (const file of change.files) {
    for (const [version, into] of [
      [file.base, baseFacts],
      [file.head, headFacts],
    ] as const) {
      const language = version === undefined ? undefined : detectLanguage(version.path);
      if (version?.text === undefined || language === undefined) continue;
      into.set(version.path, await parse(language, version.text));
    }
  }
  return { baseFacts, headFacts };
}

/** A policy as a user would write it (the body after `version: 1`), completed with defaults. */
export function policyFrom(yaml = ''): Policy {
  const parsed = parsePolicy(`version: 1\n${yaml}`, '.aureus/policy.yaml');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.policy;
}

export interface PriceOptions {
  readonly policy?: Policy;
  readonly baseModules?: readonly string[];
  readonly headModules?: readonly string[];
}

/** Prices hand-built files with real facts; modules default to none on either side. */
export async function priceOf(
  files: readonly FileSpec[],
  options: PriceOptions = {},
): Promise<PricedChange> {
  const change = changeOf(files);
  const facts = await factsOfChange(change);
  return priceChange({
    change,
    ...facts,
    baseModules: options.baseModules ?? [],
    headModules: options.headModules ?? [],
    policy: options.policy ?? policyFrom(),
  });
}

/** `n` code lines of TypeScript, each a top-level statement, numbered from `from`. */
export function tsLines(count: number, from = 0): string {
  return Array.from({ length: count }, (_, i) => `export const v${from + i} = ${from + i};\n`).join(
    '',
  );
}

/** Items of one category, with only what a test compares. */
export function itemsOf(priced: PricedChange, category: string) {
  return priced.items
    .filter((item) => item.category === category)
    .map(({ points, path, detail }) => ({ points, path, detail }));
}
