import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` is `folder` or lies below it (both absolute, compared as written). */
export function isInside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}
