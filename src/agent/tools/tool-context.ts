import type { PathTest } from '../../policy/glob-matcher.js';

/** What every tool of a run knows: where the run's tree is and the bounds the loop sets. */
export interface ToolContext {
  /** The run's tree, an absolute real path. */
  readonly tree: string;
  /** permissions.protected_paths and the paths always protected (protectedPathTest). */
  readonly isProtected: PathTest;
  /** Largest file a tool reads or writes. */
  readonly maxFileBytes: number;
  /** Most bytes of any one text of a result (head and tail kept, the middle marked). */
  readonly maxResultBytes: number;
}
