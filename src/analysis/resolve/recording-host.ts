import type * as ts from 'typescript';

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

export function recordingHost(host: ts.ModuleResolutionHost): RecordingHost {
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
