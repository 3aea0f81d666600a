import type { FileFacts } from '../../model/facts.js';
import {
  folderOf,
  groupBy,
  hasPathSuffix,
  joinPath,
  type Located,
  locatedAmong,
} from '../repository-paths.js';
import { declaredIn } from './targets.js';

/**
 * Java types by name, from the repository's `.java` paths and facts (no class path, no
 * `package` declarations, which the facts do not carry). Approximations:
 * - a package is a folder: files in the same folder are the same package, and see each
 *   other's types without importing them;
 * - a fully qualified name `a.b.C` is the file whose path ends with `a/b/C.java` and declares
 *   `C`, whatever source root holds it (`src/main/java/`, a module's folder); a nested type
 *   `a.b.Outer.Inner` is `Inner` declared in the file ending with `a/b/Outer.java`;
 * - several such files (the same class in two modules) are ambiguous, not chosen between.
 */
export interface JavaTypes {
  locate(qualified: string): Located;
  /** The file of `fromFile`'s package that declares `name`: `Name.java` first. */
  inPackage(fromFile: string, name: string): Located;
}

const JAVA = '.java';

export function createJavaTypes(files: ReadonlyMap<string, FileFacts>): JavaTypes {
  const javaFiles = [...files].filter(([, facts]) => facts.language === 'java').map(([p]) => p);
  const byBaseName = groupBy(javaFiles, (path) => path.split('/').at(-1)?.slice(0, -JAVA.length));
  const byFolder = groupBy(javaFiles, folderOf);
  const declares = (path: string, name: string): boolean => {
    const facts = files.get(path);
    return facts !== undefined && declaredIn(path, facts, name) !== undefined;
  };
  return {
    locate(qualified) {
      const segments = qualified.split('.');
      const name = segments.at(-1) ?? '';
      // The longest path first: `a.b.Outer.Inner` may be `a/b/Outer/Inner.java` or nested.
      for (let length = segments.length; length >= 1; length--) {
        const suffix = `${segments.slice(0, length).join('/')}${JAVA}`;
        const candidates = (byBaseName.get(segments[length - 1] ?? '') ?? []).filter(
          (path) => hasPathSuffix(path, suffix) && declares(path, name),
        );
        if (candidates.length > 0) return locatedAmong(candidates);
      }
      return { kind: 'absent' };
    },
    inPackage(fromFile, name) {
      const folder = folderOf(fromFile);
      const named = joinPath(folder, `${name}${JAVA}`);
      if (declares(named, name)) return { kind: 'file', file: named };
      const inFolder = byFolder.get(folder) ?? [];
      return locatedAmong(inFolder.filter((path) => path !== fromFile && declares(path, name)));
    },
  };
}
