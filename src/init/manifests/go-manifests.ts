import { goMod as goModDependencies } from '../../pricing/dependencies/go-mod.js';
import { fromScopes, type ManifestReader, manifestFacts } from './manifest-facts.js';

/** go.mod: the module path's last segment as the name, requirements from the pricing's reader. */
export const goMod: ManifestReader = {
  ecosystem: 'go',
  reads: (fileName) => fileName === 'go.mod',
  read(text, fileName) {
    const reading = goModDependencies.read(text, fileName);
    if (!reading.ok) return null;
    const module = /^\s*module\s+"?([^\s"]+)/m.exec(text)?.[1] ?? '';
    return manifestFacts({
      name: module.split('/').pop() || null,
      dependencies: fromScopes(reading.dependencies),
    });
  },
};

/** go.work: the module folders of its `use` directives, one-line or in a block. */
export const goWork: ManifestReader = {
  ecosystem: 'go',
  reads: (fileName) => fileName === 'go.work',
  read(text) {
    const folders: string[] = [];
    let inBlock = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/\/\/.*$/, '').trim();
      if (inBlock && line.startsWith(')')) inBlock = false;
      else if (/^use\s*\($/.test(line)) inBlock = true;
      else if (inBlock || line.startsWith('use ')) {
        const folder = (inBlock ? line : line.slice('use '.length)).trim().replace(/^"|"$/g, '');
        if (folder !== '') folders.push(folder);
      }
    }
    return manifestFacts({ workspaces: folders });
  },
};
