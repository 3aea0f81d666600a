import { posix } from 'node:path';
import type * as ts from 'typescript';
import { typescript } from '../typescript-runtime.js';
import { fallbackOptions, resolutionOptions, usesNodeModuleFormats } from './compiler-defaults.js';
import {
  isBuiltinSpecifier,
  isPathSpecifier,
  matchesPathsPattern,
  packageNameFromPath,
  packageNameOf,
} from './package-names.js';
import type { Resolution, ResolveImport } from './resolution.js';

export interface ResolverOptions {
  /** The repository root, absolute. */
  readonly rootDir: string;
  /** File access for TypeScript's resolution; its `realpath` lets workspace links resolve. */
  readonly host: ts.ModuleResolutionHost;
  /**
   * The compiler options of a repository-relative file (those of its nearest tsconfig.json).
   * Called once per folder: files of one folder must share their options.
   */
  compilerOptionsFor(file: string): ts.CompilerOptions;
  /**
   * Whether git tracks a repository-relative file. A tracked file under node_modules is the
   * repository's code (priced, critiqued), not an installed package. Without it none is.
   */
  readonly tracked?: (path: string) => boolean;
}

export interface Resolver {
  readonly resolve: ResolveImport;
  /**
   * The repository paths whose appearance or disappearance could change `resolve`'s answer for
   * the same import (folders, where one was found missing, end in `/`): every file TypeScript
   * looked for or read on its way to the answer. Another snapshot with the same configs keeps
   * the answer while none of them was added or removed. A file's module format comes from
   * package.json files read through a cache shared by every import, so those reads show for
   * the first import only: package.json files are configs, whose change re-resolves everything.
   */
  watched(fromFile: string, specifier: string): readonly string[];
}

interface Answer {
  readonly resolution: Resolution;
  readonly watched: readonly string[];
}

interface FolderSettings {
  readonly options: ts.CompilerOptions;
  readonly fallback: ts.CompilerOptions;
  readonly cache: ts.ModuleResolutionCache;
}

/**
 * Resolves imports the way TypeScript does (`ts.resolveModuleName`) with each file's own
 * compiler options, and sorts the answer into repository files, packages, builtins and
 * failures. Answers are cached per (folder, import format, specifier), so a resolver serves one
 * snapshot of the file system: make a new one when files change.
 *
 * TypeScript is loaded with this module (~200 ms): import it lazily where few files change.
 */
export function createResolver(options: ResolverOptions): Resolver {
  const root = trimSlash(toPosix(options.rootDir));
  const realRoot = trimSlash(toPosix(options.host.realpath?.(root) ?? root));
  const settingsByFolder = new Map<string, FolderSettings>();
  const settingsByOptions = new Map<ts.CompilerOptions, FolderSettings>();
  const answers = new Map<string, Answer>();
  const tracked = options.tracked ?? (() => false);
  const recorder = recordingHost(options.host);
  const host = recorder.host;

  const settingsFor = (file: string, folder: string): FolderSettings => {
    const known = settingsByFolder.get(folder);
    if (known !== undefined) return known;
    const projectOptions = options.compilerOptionsFor(file);
    let settings = settingsByOptions.get(projectOptions);
    if (settings === undefined) {
      const resolving = resolutionOptions(projectOptions);
      settings = {
        options: resolving,
        fallback: fallbackOptions(projectOptions),
        cache: typescript.createModuleResolutionCache(root, (name) => name, resolving),
      };
      settingsByOptions.set(projectOptions, settings);
    }
    settingsByFolder.set(folder, settings);
    return settings;
  };

  const locate = (absolute: string, specifier: string, packageId?: ts.PackageId): Resolution => {
    const path = toPosix(absolute);
    const inside = relativeInside(path, realRoot) ?? relativeInside(path, root);
    const packageName =
      packageId?.name ?? packageNameFromPath(path) ?? packageNameOfBare(specifier);
    if (inside !== undefined && (tracked(inside) || !inside.split('/').includes('node_modules'))) {
      return { kind: 'file', path: inside };
    }
    if (packageName !== undefined) return { kind: 'external', packageName };
    return { kind: 'unresolved' };
  };

  const resolveUncached = (
    fromFile: string,
    specifier: string,
    settings: FolderSettings,
  ): Resolution => {
    const containing = `${root}/${fromFile}`;
    const mode = usesNodeModuleFormats(settings.options)
      ? typescript.getImpliedNodeFormatForFile(
          containing,
          settings.cache.getPackageJsonInfoCache(),
          host,
          settings.options,
        )
      : undefined;
    // No module resolution cache: it would hand one folder the answer another folder's lookup
    // found, and this folder's lookups would go unrecorded. Answers are cached per folder here;
    // resolving effect's imports without it took no longer (within the runs' noise).
    const found =
      typescript.resolveModuleName(
        specifier,
        containing,
        settings.options,
        host,
        undefined,
        undefined,
        mode,
      ).resolvedModule ??
      typescript.resolveModuleName(specifier, containing, settings.fallback, host).resolvedModule;
    if (found !== undefined) return locate(found.resolvedFileName, specifier, found.packageId);
    return unresolvedAnswer(fromFile, specifier, settings.options);
  };

  const unresolvedAnswer = (
    fromFile: string,
    specifier: string,
    projectOptions: ts.CompilerOptions,
  ): Resolution => {
    if (isPathSpecifier(specifier)) {
      // `./styles.css`, `./data.txt`: files TypeScript does not resolve, imported all the same.
      const target = posix.normalize(posix.join(posix.dirname(`${root}/${fromFile}`), specifier));
      return host.fileExists(target) ? locate(target, specifier) : { kind: 'unresolved' };
    }
    if (matchesPathsPattern(projectOptions.paths, specifier)) return { kind: 'unresolved' };
    // A package that is not installed (a checkout read over the API has no node_modules) is
    // still a package: the answer must not depend on whether `npm install` ran.
    const packageName = packageNameOf(specifier);
    return packageName === undefined ? { kind: 'unresolved' } : { kind: 'external', packageName };
  };

  const BUILTIN: Answer = { resolution: { kind: 'builtin' }, watched: [] };
  const NOTHING: Answer = { resolution: { kind: 'unresolved' }, watched: [] };
  const answer = (fromFile: string, specifier: string): Answer => {
    if (specifier === '') return NOTHING;
    if (isBuiltinSpecifier(specifier)) return BUILTIN;
    const folder = posix.dirname(fromFile);
    const settings = settingsFor(fromFile, folder);
    const key = `${folder}\0${formatKey(fromFile)}\0${specifier}`;
    const known = answers.get(key);
    if (known !== undefined) return known;
    const { value, asked } = recorder.record(() => resolveUncached(fromFile, specifier, settings));
    // The file found, by the path AUREUS reports (a workspace link's target): its removal counts.
    const found = value.kind === 'file' ? [`${root}/${value.path}`] : [];
    const fresh = { resolution: value, watched: insideRepository([...asked, ...found]) };
    answers.set(key, fresh);
    return fresh;
  };

  /** The repository-relative forms of absolute paths; those outside the repository left out. */
  const insideRepository = (paths: Iterable<string>): string[] => {
    const inside = new Set<string>();
    for (const absolute of paths) {
      const path = toPosix(absolute);
      const relative = relativeInside(path, root) ?? relativeInside(path, realRoot);
      if (relative !== undefined) inside.add(relative);
    }
    return [...inside].sort();
  };

  return {
    resolve: (fromFile, specifier) => answer(fromFile, specifier).resolution,
    watched: (fromFile, specifier) => answer(fromFile, specifier).watched,
  };
}

/**
 * Files of one folder resolve alike, except that `.mts`/`.cts` files have a module format of
 * their own under Node16/NodeNext; the cache keeps them apart.
 */
function formatKey(file: string): string {
  if (file.endsWith('.mts') || file.endsWith('.mjs')) return 'esm';
  if (file.endsWith('.cts') || file.endsWith('.cjs')) return 'cjs';
  return '';
}

function packageNameOfBare(specifier: string): string | undefined {
  return isPathSpecifier(specifier) ? undefined : packageNameOf(specifier);
}

function relativeInside(path: string, folder: string): string | undefined {
  return path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
}

function toPosix(path: string): string {
  return path.replaceAll('\\', '/');
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A resolution host that notes the paths TypeScript asks about while `record` runs. */
export interface RecordingHost {
  readonly host: ts.ModuleResolutionHost;
  /**
   * Runs `resolve` and returns what it asked about: every file whose existence or text it
   * read, and, ending in `/`, every folder it found missing (a file added under one may be
   * what a later lookup finds). Folders that exist are not noted: only their files decide.
   */
  record<T>(resolve: () => T): { readonly value: T; readonly asked: ReadonlySet<string> };
}

function recordingHost(host: ts.ModuleResolutionHost): RecordingHost {
  let asked: Set<string> | undefined;
  const { directoryExists } = host;
  return {
    host: {
      ...host,
      fileExists: (path) => {
        asked?.add(path);
        return host.fileExists(path);
      },
      readFile: (path) => {
        asked?.add(path);
        return host.readFile(path);
      },
      ...(directoryExists === undefined
        ? {}
        : {
            directoryExists: (path: string) => {
              const exists = directoryExists(path);
              if (!exists) asked?.add(`${path.replace(/\/+$/, '')}/`);
              return exists;
            },
          }),
    },
    record: (resolve) => {
      const outer = asked;
      const own = new Set<string>();
      asked = own;
      try {
        return { value: resolve(), asked: own };
      } finally {
        asked = outer;
      }
    },
  };
}
