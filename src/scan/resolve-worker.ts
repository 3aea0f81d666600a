import { type MessagePort, parentPort } from 'node:worker_threads';
import type { Resolver } from '../analysis/resolve/create-resolver.js';
import { codeCacheFolder, enableCodeCache } from '../memory/compiled-code-cache.js';
import type { FromResolveWorker, ToResolveWorker } from './resolver-thread.js';

// The worker's entry (bundled as dist/cli-bundle/resolve-worker.mjs, started by
// resolver-thread.ts). It loads TypeScript at once, before any file is known, while the parent
// parses.
enableCodeCache(codeCacheFolder(process.env));
if (parentPort !== null) serve(parentPort, import('./typescript-resolver.js'));

/**
 * Handles the messages one after the other, in the order they come. Anything that throws ends
 * the answering: the parent resolves the rest itself, and meets the same error there.
 */
function serve(
  port: MessagePort,
  loading: Promise<typeof import('./typescript-resolver.js')>,
): void {
  let resolver: Resolver | undefined;
  let queue: Promise<void> = loading.then(noop, noop);
  let failed = false;
  const post = (message: FromResolveWorker) => port.postMessage(message);
  const handle = async (message: ToResolveWorker): Promise<void> => {
    if (message.kind === 'files') {
      resolver = (await loading).typeScriptResolver(message.files);
    } else if (message.kind === 'flush') {
      post({ kind: 'flushed' });
    } else {
      if (resolver === undefined) throw new Error('requests came before the resolution files');
      const using = resolver;
      const answers = message.requests.map(({ from, specifier }) => ({
        from,
        specifier,
        resolution: using.resolve(from, specifier),
        watched: using.watched(from, specifier),
      }));
      post({ kind: 'answers', answers });
    }
  };
  port.on('message', (message: ToResolveWorker) => {
    queue = queue.then(async () => {
      if (failed) return;
      try {
        await handle(message);
      } catch {
        failed = true;
        post({ kind: 'failed' });
      }
    });
  });
}

function noop(): void {}
