import nodeModule, { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { insideWorkTree, userCacheFolder } from './cache-dir.js';
import { type CompiledCodeStore, compiledCodeStore } from './compiled-code-store.js';

/**
 * CommonJS modules at least this large are compiled through the store: TypeScript (9 MB, loaded
 * to resolve imports and by ts-morph). Smaller ones compile faster than an entry is checked.
 */
const LARGE_MODULE_CHARS = 1_000_000;

/** What the process does with compiled code; `events` says, per large module, what happened. */
export interface CodeCacheStatus {
  readonly mode: 'node' | 'large-modules' | 'off';
  readonly events: string[];
}

/**
 * Where compiled code is kept: `AUREUS_CODE_CACHE` (a folder, or `off`), else `code/` in
 * AUREUS's cache folder (cache-dir.ts: `AUREUS_CACHE_DIR`, else `~/.cache/aureus` on Linux,
 * `~/Library/Caches/aureus` on macOS, `%LOCALAPPDATA%\aureus\Cache` on Windows). Never inside
 * the repository AUREUS runs in (around `cwd`): compiled code runs as code, and a checkout's
 * files are this user's, so the store's checks would pass them; such a folder is not used.
 */
export function codeCacheFolder(
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): string | undefined {
  const setting = env.AUREUS_CODE_CACHE;
  if (setting === 'off') return undefined;
  const caches = userCacheFolder(env);
  const folder =
    setting !== undefined && setting !== ''
      ? resolve(setting)
      : caches === undefined
        ? undefined
        : join(caches, 'code');
  return folder === undefined || insideWorkTree(folder, cwd) ? undefined : folder;
}

/**
 * Keeps V8's compiled code between runs, so a hook or a run that resolves imports does not
 * compile TypeScript anew each time (~130 ms of a cold analysis). Node ≥ 22.1 does this itself
 * for every module (`module.enableCompileCache`); on Node 20 only the large CommonJS modules go
 * through AUREUS's own store, by way of the CommonJS loader's `_compile` (internal, but frozen
 * on Node 20). Call once, before anything requires TypeScript.
 */
export function enableCodeCache(folder: string | undefined): CodeCacheStatus {
  const events: string[] = [];
  if (folder === undefined) return { mode: 'off', events };
  const nodeCache: unknown = Reflect.get(nodeModule, 'enableCompileCache');
  if (typeof nodeCache === 'function') {
    nodeCache.call(nodeModule, join(folder, 'node'));
    return { mode: 'node', events };
  }
  const compile: unknown = Reflect.get(nodeModule.prototype, '_compile');
  if (typeof compile !== 'function') return { mode: 'off', events };
  const store = compiledCodeStore(folder, `${process.versions.v8}-${process.arch}`);
  Reflect.set(
    nodeModule.prototype,
    '_compile',
    function compileLarge(
      this: { exports: unknown },
      content: unknown,
      filename: unknown,
      ...rest: unknown[]
    ) {
      // A third argument other than 'commonjs' (require of an ES module) is Node's to handle.
      const format = rest[0];
      if (
        typeof content !== 'string' ||
        typeof filename !== 'string' ||
        content.length < LARGE_MODULE_CHARS ||
        (format !== undefined && format !== 'commonjs')
      ) {
        return compile.call(this, content, filename, ...rest);
      }
      return runCompiled(this, content, filename, store, events);
    },
  );
  return { mode: 'large-modules', events };
}

/** Compiles `content` with the stored code when V8 accepts it, and runs it as Node would. */
function runCompiled(
  module: { exports: unknown },
  content: string,
  filename: string,
  store: CompiledCodeStore,
  events: string[],
): unknown {
  const stored = store.read(content);
  const script = new Script(nodeModule.wrap(content), {
    filename,
    cachedData: 'code' in stored ? stored.code : undefined,
  });
  const name = filename.split(/[\\/]/).slice(-3).join('/');
  if ('miss' in stored || script.cachedDataRejected === true) {
    events.push(`${name}: ${'miss' in stored ? stored.miss : 'rejected by V8'}`);
    // At exit the code holds every function the run compiled, not only the top level.
    process.once('exit', () => {
      const written = store.write(content, script.createCachedData());
      events.push(`${name}: ${written ? 'stored' : 'not stored'}`);
    });
  } else {
    events.push(`${name}: from the store`);
  }
  const wrapper: unknown = script.runInThisContext({ displayErrors: true });
  if (typeof wrapper !== 'function') throw new Error(`${filename} did not compile to a module`);
  return wrapper.call(
    module.exports,
    module.exports,
    createRequire(filename),
    module,
    filename,
    dirname(filename),
  );
}
