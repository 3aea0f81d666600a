import { posix } from 'node:path';
import type * as ts from 'typescript';
import { DEFAULT_COMPILER_OPTIONS } from '../analysis/resolve/compiler-defaults.js';
import { typescript } from '../analysis/typescript-runtime.js';
import { DEFAULT_MAX_BLOB_BYTES } from '../git/blob-limit.js';
import { containedDisk } from '../git/contained-file.js';

/** The file-system side of module resolution, for `createResolver`. */
export interface TypeScriptHost {
  /** The file access resolution goes through (by default the real disk, cached). */
  readonly host: ts.ModuleResolutionHost;
  /**
   * The options of the nearest tsconfig.json (or jsconfig.json) at or above a repository-relative
   * file, within the repository; DEFAULT_COMPILER_OPTIONS when there is none. Files governed by
   * one config get the same object.
   */
  compilerOptionsFor(file: string): ts.CompilerOptions;
  /** Config files that could not be read or parsed, as `path: message` (they got defaults). */
  readonly problems: readonly string[];
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
// TS18003 "No inputs were found": we never list the files (see `readDirectory` below).
const NO_INPUTS_FOUND = 18003;

/**
 * A resolution host over `host` (the real file system under `rootDir`, cached, by default),
 * with each folder's compiler options read from its tsconfig.json through the same host. Make a
 * new one per run, since the files may change between runs.
 */
export function createTypeScriptHost(
  rootDir: string,
  host: ts.ModuleResolutionHost = diskResolutionHost(rootDir),
): TypeScriptHost {
  const root = posixRoot(rootDir);
  const problems: string[] = [];
  const configOfFolder = new Map<string, string | null>();
  const optionsOfConfig = new Map<string, ts.CompilerOptions>();
  const extendedConfigCache = new Map<string, ts.ExtendedConfigCacheEntry>();
  const caseSensitive = host.useCaseSensitiveFileNames;
  const parseHost: ts.ParseConfigHost = {
    useCaseSensitiveFileNames:
      typeof caseSensitive === 'function'
        ? caseSensitive()
        : (caseSensitive ?? typescript.sys.useCaseSensitiveFileNames),
    // Only the options are wanted: listing `include` would walk the whole tree for nothing.
    readDirectory: () => [],
    fileExists: host.fileExists,
    readFile: host.readFile,
  };

  const nearestConfig = (folder: string): string | null => {
    const known = configOfFolder.get(folder);
    if (known !== undefined) return known;
    const absolute = folder === '.' ? root : `${root}/${folder}`;
    const here = CONFIG_NAMES.map((name) => `${absolute}/${name}`).find(host.fileExists);
    // Never above the repository: a config there belongs to another project (or another user).
    const found = here ?? (folder === '.' ? null : nearestConfig(posix.dirname(folder)));
    configOfFolder.set(folder, found);
    return found;
  };

  const readOptions = (configPath: string): ts.CompilerOptions => {
    const known = optionsOfConfig.get(configPath);
    if (known !== undefined) return known;
    const options = parseConfig(configPath);
    optionsOfConfig.set(configPath, options);
    return options;
  };

  const parseConfig = (configPath: string): ts.CompilerOptions => {
    const name = configPath.slice(root.length + 1);
    const read = typescript.readConfigFile(configPath, host.readFile);
    if (read.error !== undefined) {
      problems.push(`${name}: ${messageOf(read.error)}`);
      return DEFAULT_COMPILER_OPTIONS;
    }
    const config: unknown = read.config;
    const parsed = typescript.parseJsonConfigFileContent(
      config,
      parseHost,
      posix.dirname(configPath),
      configPath.endsWith('jsconfig.json') ? { allowJs: true } : undefined,
      configPath,
      undefined,
      undefined,
      extendedConfigCache,
    );
    for (const error of parsed.errors) {
      if (error.code !== NO_INPUTS_FOUND) problems.push(`${name}: ${messageOf(error)}`);
    }
    return parsed.options;
  };

  return {
    host,
    problems,
    compilerOptionsFor: (file) => {
      const config = nearestConfig(posix.dirname(file));
      return config === null ? DEFAULT_COMPILER_OPTIONS : readOptions(config);
    },
  };
}

/**
 * The disk under `rootDir` as resolution sees it, with every lookup cached for the host's
 * lifetime (resolution asks the same questions thousands of times). Only what lies inside the
 * repository exists, and only as the contained disk reads it: a tracked tsconfig.json that
 * links to /dev/zero, a FIFO or a file elsewhere, or a node_modules that links to `/`, is not
 * there (see contained-file.ts); packages installed above the repository are not its own.
 */
export function diskResolutionHost(rootDir: string): ts.ModuleResolutionHost {
  const root = posixRoot(rootDir);
  const disk = containedDisk(root, DEFAULT_MAX_BLOB_BYTES);
  return {
    fileExists: memoize((path) => disk.kind(path) === 'file'),
    directoryExists: memoize((path) => disk.kind(path) === 'folder'),
    readFile: memoize((path) => {
      const read = disk.read(path);
      return read.ok ? decodeText(read.bytes) : undefined;
    }),
    realpath: memoize((path) => disk.realpath(path)),
    // The repository, not the process's cwd: answers must not depend on where AUREUS was started.
    getCurrentDirectory: () => root,
    getDirectories: memoize((path) =>
      disk.list(path).flatMap((entry) => (entry.kind === 'folder' ? [entry.name] : [])),
    ),
    useCaseSensitiveFileNames: typescript.sys.useCaseSensitiveFileNames,
  };
}

/** A text file's contents as ts.sys.readFile decodes them: a byte order mark picks UTF-16. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return bytes.subarray(3).toString('utf8');
  return bytes.toString('utf8');
}

function posixRoot(rootDir: string): string {
  return rootDir.replaceAll('\\', '/').replace(/\/+$/, '') || '/';
}

function memoize<T>(lookup: (path: string) => T): (path: string) => T {
  // Boxed, so that a cached `undefined` or `false` is told apart from a miss.
  const answers = new Map<string, { readonly value: T }>();
  return (path) => {
    const known = answers.get(path);
    if (known !== undefined) return known.value;
    const value = lookup(path);
    answers.set(path, { value });
    return value;
  };
}

function messageOf(diagnostic: ts.Diagnostic): string {
  return typescript.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
}
