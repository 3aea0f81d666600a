import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Source trees for the resolution tests, written to a temp folder per test. They live here and
 * not as files under test/fixtures because the repository's tsconfig type-checks every `.ts`
 * under test/, and these trees import path aliases and packages only they define; and because
 * node_modules symlinks (how workspaces link packages) are not something git should carry.
 */
export type Tree = Record<string, string | { readonly symlinkTo: string }>;

export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    if (typeof content === 'string') await writeFile(target, content);
    else await symlink(content.symlinkTo, target);
  }
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** An ESM package compiled with NodeNext: `.js` specifiers that name `.ts` files. */
export const NODE_NEXT: Tree = {
  'package.json': json({ name: 'nodenext', type: 'module' }),
  'tsconfig.json': json({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
  'src/b.ts': "import type { A } from './a.js';\nexport const b = 1;\nexport type B = A;\n",
  'src/view.tsx': 'export const View = 1;\n',
  'src/dir/index.ts': 'export const d = 1;\n',
  'src/esm.mts': 'export const m = 1;\n',
  'src/common.cts': 'export const c = 1;\n',
  'src/legacy.js': 'export const legacy = 1;\n',
  'src/styles.css': 'body {}\n',
  'src/data.json': '{"x":1}\n',
  'node_modules/left-pad/package.json': json({
    name: 'left-pad',
    version: '1.0.0',
    main: 'index.js',
  }),
  'node_modules/left-pad/index.js': 'module.exports = () => 1;\n',
  'node_modules/left-pad/index.d.ts': 'export default function leftPad(): number;\n',
};

/** `baseUrl` + `paths` aliases. */
export const PATH_ALIASES: Tree = {
  'tsconfig.json': json({
    compilerOptions: {
      module: 'ESNext',
      moduleResolution: 'Bundler',
      baseUrl: '.',
      paths: { '@app/*': ['src/*'], '~': ['src/index.ts'] },
    },
  }),
  'src/index.ts': "export * from '@app/util/strings';\n",
  'src/util/strings.ts': "import { root } from '~';\nexport const s = root;\n",
  'src/main.ts': "import '@app/util/strings';\n",
};

/** No tsconfig at all: plain JavaScript. */
export const PLAIN_JS: Tree = {
  'package.json': json({ name: 'plain', type: 'module' }),
  'index.js': "import './lib';\n",
  'lib/index.js': "import './helper.mjs';\n",
  'lib/helper.mjs': 'export const h = 1;\n',
  'lib/view.jsx': 'export const v = 1;\n',
};

/**
 * An npm workspace: two packages linked into node_modules, one config each, extending a shared
 * base. `app` resolves with Node10 rules and `ui` with NodeNext, so the nearest config matters.
 */
export const WORKSPACE: Tree = {
  'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'] }),
  'tsconfig.base.json': json({ compilerOptions: { strict: true, moduleResolution: 'Node10' } }),
  'packages/app/package.json': json({ name: '@demo/app', version: '1.0.0' }),
  'packages/app/tsconfig.json': json({ extends: '../../tsconfig.base.json' }),
  'packages/app/src/main.ts': "import { Button } from '@demo/ui';\nimport './extensionless';\n",
  'packages/app/src/extensionless.ts': 'export {};\n',
  'packages/ui/package.json': json({
    name: '@demo/ui',
    version: '1.0.0',
    type: 'module',
    exports: { '.': './src/index.ts', './button': './src/button.ts' },
  }),
  'packages/ui/tsconfig.json': json({
    extends: '../../tsconfig.base.json',
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  }),
  'packages/ui/src/index.ts': "export { Button } from './button.js';\n",
  'packages/ui/src/button.ts': "import './extensionless';\nexport const Button = 1;\n",
  'packages/ui/src/extensionless.ts': 'export {};\n',
  'node_modules/@demo/ui': { symlinkTo: '../../packages/ui' },
  'node_modules/@demo/app': { symlinkTo: '../../packages/app' },
};
