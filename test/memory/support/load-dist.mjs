// Child processes run the compiled library, as a real CLI/hook/Action process would.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function loadDist(module) {
  const url = new URL(`../../../dist/memory/${module}.js`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    process.stderr.write(
      `${fileURLToPath(url)} is missing: build first with \`npx tsc -p tsconfig.build.json\`\n`,
    );
    process.exit(2);
  }
  return import(url.href);
}
