import type { EmitCondition, ImportFact } from '../../model/facts.js';

/**
 * The compiler settings of one file (its tsconfig's) that decide which of its imports
 * TypeScript's emit keeps (ImportFact.keptWhen): plain data, so that they are stored with the
 * resolution answers and read without TypeScript.
 */
export interface EmitSettings {
  /**
   * `imports`: every import not written `type` is kept (`verbatimModuleSyntax`,
   * `importsNotUsedAsValues: preserve|error`); `values`: imports that bind values are kept,
   * used or not (`preserveValueImports`); `none`: imports whose names are not used as values go.
   */
  readonly preserve: 'none' | 'values' | 'imports';
  /** The JSX factory's first name (`jsxFactory`, `React` by default), whatever the `jsx` runtime. */
  readonly jsxFactory: string;
  /** `emitDecoratorMetadata` with `legacy` (`experimentalDecorators`) or `es` decorators; null without it. */
  readonly decoratorMetadata: 'legacy' | 'es' | null;
  readonly strictNullChecks: boolean;
}

/** TypeScript's defaults: what a file no tsconfig governs gets. */
export const DEFAULT_EMIT_SETTINGS: EmitSettings = Object.freeze({
  preserve: 'none',
  jsxFactory: 'React',
  decoratorMetadata: null,
  strictNullChecks: false,
});

/** Whether TypeScript's emit keeps the import under these settings: whether it runs. */
export function isEmitted(fact: ImportFact, settings: EmitSettings): boolean {
  return fact.keptWhen.some((condition) => holds(condition, settings));
}

function holds(condition: EmitCondition, settings: EmitSettings): boolean {
  switch (condition) {
    case 'always':
      return true;
    case 'preserved-values':
      return settings.preserve !== 'none';
    case 'preserved-imports':
      return settings.preserve === 'imports';
  }
  const [kind, argument, loose] = condition.split(':');
  if (kind === 'jsx-factory') return argument === settings.jsxFactory;
  const metadata = settings.decoratorMetadata;
  return (
    metadata !== null &&
    (argument === 'any' || argument === metadata) &&
    (loose === undefined || !settings.strictNullChecks)
  );
}
