/** The real Python code base compared with CPython's import machinery (python-edges.mjs). */
export declare const PYTHON_CODEBASE: {
  readonly name: string;
  readonly version: string;
  readonly folder: string;
  readonly roots: readonly string[];
};
export declare function ensurePython(): void;
export declare function pythonCodebaseRepo(codebase?: typeof PYTHON_CODEBASE): string;
export declare function referenceEdges(repo: string, roots?: readonly string[]): string[];
export declare function edgeDifference(
  aureus: readonly string[],
  reference: readonly string[],
): { readonly onlyInAureus: string[]; readonly onlyInReference: string[] };
