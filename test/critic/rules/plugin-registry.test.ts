import { describe, expect, it } from '@jest/globals';
import { pluginRegistry } from '../../../src/critic/rules/plugin-registry.js';
import { briefly, contextOf } from '../critic-support.js';

const CORE = 'paths:\n  core: [src/core/**]\n';
const PLUGINS = [
  'export class PluginRegistry {',
  '  private readonly plugins: string[] = [];',
  '  register(name: string): void {',
  '    this.plugins.push(name);',
  '  }',
  '  registerPlugin(name: string): void {',
  '    this.register(name);',
  '  }',
  '}',
  'export async function loadPlugins(names: string[]): Promise<unknown[]> {',
  '  return Promise.all(names.map((name) => import(name)));',
  '}',
  'export const register_auth_plugin = (name: string) => name;',
  '',
].join('\n');

describe('plugin_registry', () => {
  it('reports a *Registry with register, plugin loaders and computed imports in the core', async () => {
    const findings = pluginRegistry.check(
      await contextOf({ 'src/core/plugins.ts': PLUGINS }, CORE),
    );
    expect(briefly(findings)).toEqual([
      { ruleId: 'plugin_registry', symbol: 'dynamic-import:1', at: 'src/core/plugins.ts:11' },
      { ruleId: 'plugin_registry', symbol: 'PluginRegistry', at: 'src/core/plugins.ts:1' },
      { ruleId: 'plugin_registry', symbol: 'loadPlugins', at: 'src/core/plugins.ts:10' },
      { ruleId: 'plugin_registry', symbol: 'register_auth_plugin', at: 'src/core/plugins.ts:13' },
    ]);
    expect(findings.map((finding) => finding.message)).toEqual([
      'core file src/core/plugins.ts loads code through an import of a module named at run time on line 11',
      'class PluginRegistry in core file src/core/plugins.ts is a registry: it has a register method',
      'function loadPlugins in core file src/core/plugins.ts registers or loads plugins',
      'function register_auth_plugin in core file src/core/plugins.ts registers or loads plugins',
    ]);
  });

  it('passes literal imports, registries without register, unrelated register* names', async () => {
    const context = await contextOf(
      {
        'src/core/lazy.ts': [
          "export const lazy = () => import('./catalog.js');",
          'export class CatalogRegistry {',
          '  get(name: string): string { return name; }',
          '}',
          'export function registerUser(name: string): string { return name; }',
          '',
        ].join('\n'),
        'src/core/catalog.ts': 'export const catalog = 1;\n',
      },
      CORE,
    );
    expect(pluginRegistry.check(context)).toEqual([]);
  });

  it('does not look outside the core', async () => {
    const context = await contextOf({ 'src/cli/plugins.ts': PLUGINS }, CORE);
    expect(pluginRegistry.check(context)).toEqual([]);
  });
});
