/** The go command's package edges beside AUREUS's (go-package-edges.mjs). */
export interface ListedPackage {
  readonly importPath: string;
  readonly files: readonly string[];
  readonly ignored: readonly string[];
  readonly imports: readonly string[];
  readonly testFiles: readonly string[];
  readonly testImports: readonly string[];
}
export declare const STD_SUBSET: readonly string[];
export declare function ensureGo(): void;
export declare function goListPackages(): { src: string; packages: ListedPackage[] };
export declare function copyStdSubset(src: string, dir: string): void;
export declare function writeGoPolicy(
  packages: readonly ListedPackage[],
  file: string,
  withTests: boolean,
): number;
export declare function referenceEdges(
  packages: readonly ListedPackage[],
  withTests: boolean,
): string[];
export declare function aureusEdges(analysis: {
  moduleEdges: readonly { from: string; to: string }[];
}): string[];
export declare function edgeDifference(
  ours: readonly string[],
  theirs: readonly string[],
): { onlyInAureus: string[]; onlyInGoList: string[] };
export declare function compareGoStandardLibrary(tools: {
  analyze(
    repo: string,
    policy: string,
  ): Promise<{
    stats: { sourceFiles: number };
    moduleEdges: readonly { from: string; to: string }[];
  }>;
  git(dir: string, args: readonly string[]): string;
}): Promise<{ summary: string; problems: string[] }>;
