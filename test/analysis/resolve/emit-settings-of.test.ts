import { describe, expect, it } from '@jest/globals';
import { DEFAULT_EMIT_SETTINGS } from '../../../src/analysis/graph/emit-settings.js';
import { emitSettingsByFile } from '../../../src/analysis/resolve/emit-settings-of.js';

describe('emit settings of a file', () => {
  const texts = new Map([
    [
      'tsconfig.base.json',
      '{ "compilerOptions": { "experimentalDecorators": true, "emitDecoratorMetadata": true, "strict": true } }',
    ],
    [
      'packages/a/tsconfig.json',
      '{\n  // comments and trailing commas, as TypeScript reads them\n  "extends": "../../tsconfig.base",\n  "compilerOptions": { "jsx": "react", "jsxFactory": "h", },\n}',
    ],
    ['packages/b/tsconfig.json', '{ "compilerOptions": { "verbatimModuleSyntax": true } }'],
    ['packages/c/jsconfig.json', '{ "extends": "@tsconfig/node20/tsconfig.json" }'],
  ]);
  const settingsOf = emitSettingsByFile(texts);

  it('takes the nearest config, merged over the configs it extends in the repository', () => {
    expect(settingsOf('packages/a/src/deep/view.tsx')).toEqual({
      preserve: 'none',
      jsxFactory: 'h',
      decoratorMetadata: 'legacy',
      strictNullChecks: true,
    });
    expect(settingsOf('packages/b/index.ts')).toEqual({
      ...DEFAULT_EMIT_SETTINGS,
      preserve: 'imports',
    });
  });

  it('gives TypeScript’s defaults where no config applies or a package is extended', () => {
    expect(settingsOf('scripts/build.ts')).toEqual(DEFAULT_EMIT_SETTINGS);
    expect(settingsOf('packages/c/main.js')).toEqual(DEFAULT_EMIT_SETTINGS);
  });
});
