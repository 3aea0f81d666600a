/** Types of java-reference.mjs for the tests that run it. */
export interface JavaComparison {
  readonly aureus: number;
  readonly jdeps: number;
  readonly explained: { readonly inferred: number; readonly inlined: number };
  readonly problems: readonly string[];
}
export interface JavaGraph {
  readonly edges: ReadonlySet<string>;
}
export declare function prepareJavaCodebase(): string;
export declare function jdepsGraph(repo: string): JavaGraph & { readonly files: readonly string[] };
export declare function aureusGraph(
  repo: string,
): JavaGraph & { readonly sourceFiles: number; readonly cycles: readonly (readonly string[])[] };
export declare function compareJavaGraphs(
  repo: string,
  aureus: ReturnType<typeof aureusGraph>,
  jdeps: ReturnType<typeof jdepsGraph>,
): JavaComparison;
export declare function checkJavaReference(): JavaComparison & {
  readonly files: number;
  readonly cycles: readonly (readonly string[])[];
};
