import { lstatSync, mkdirSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { isRecord } from '../model/json.js';
import { insideWorkTree, realPath, userCacheFolder } from './cache-dir.js';
import { refuseUntrusted } from './cache-files.js';
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
  const named = setting !== undefined && setting !== '';
  // On a self-hosted runner the home outlives the job, and any job as the runner user could
  // leave compiled code there for the next AUREUS run (and its token) to execute: off unless
  // a folder is named on purpose.
  if (!named && env.GITHUB_ACTIONS === 'true' && env.RUNNER_ENVIRONMENT === 'self-hosted')
    return undefined;
  const caches = userCacheFolder(env);
  const folder = named ? resolve(setting) : caches === undefined ? undefined : join(caches, 'code');
  if (folder === undefined) return undefined;
  // As written and with links resolved, as localCacheFolder compares.
  const inside = insideWorkTree(folder, cwd) || insideWorkTree(realPath(folder), realPath(cwd));
  return inside ? undefined : folder;
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
  // Node's own cache, named from outside (NODE_COMPILE_CACHE): not passed on to what this
  // process starts; this process's modules are loaded by then (README, compiled code).
  delete process.env.NODE_COMPILE_CACHE;
  if (folder === undefined) return { mode: 'off', events };
  const nodeCache: unknown = Reflect.get(nodeModule, 'enableCompileCache');
  const refused = untrustedFolder(folder, typeof nodeCache === 'function');
  if (refused !== undefined) {
    events.push(refused);
    return { mode: 'off', events };
  }
  if (typeof nodeCache === 'function') {
    const enabled: unknown = nodeCache.call(nodeModule, join(folder, 'node'));
    const directory = isRecord(enabled) ? enabled.directory : undefined;
    // Enabled before this process ran a line (NODE_COMPILE_CACHE): Node keeps that folder.
    if (typeof directory === 'string' && resolve(directory) !== resolve(folder, 'node'))
      events.push(`Node's compile cache was already on, in ${directory} (NODE_COMPILE_CACHE)`);
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

/**
 * Why `folder` (and `node/` in it, Node's own cache, whose entries are checked by CRC32 only)
 * may not hold code this process runs, or undefined: each is created 0700 when missing, and
 * must then be a real folder of this user no one else may write (refuseUntrusted), as AUREUS's
 * other caches must.
 */
function untrustedFolder(folder: string, nodeCaches: boolean): string | undefined {
  try {
    for (const dir of nodeCaches ? [folder, join(folder, 'node')] : [folder]) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      refuseUntrusted(dir, lstatSync(dir));
    }
    return undefined;
  } catch (error) {
    return `compiled code is not kept: ${error instanceof Error ? error.message : String(error)}`;
  }
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
