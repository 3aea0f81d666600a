import { describe, expect, it } from '@jest/globals';
import { inferProject } from '../../src/init/infer-project.js';
import { file, packageJson, survey } from './survey-support.js';

const typeOf = (parts: Parameters<typeof survey>[0]) => inferProject(survey(parts)).type;

describe('project type', () => {
  it('is a monorepo when the root declares workspaces holding two packages or more', () => {
    const type = typeOf({
      manifests: [
        packageJson('package.json', { private: true, workspaces: ['packages/*'] }),
        packageJson('packages/a/package.json', { name: 'a', main: 'index.js' }),
        packageJson('packages/b/package.json', { name: 'b', dependencies: { react: '18' } }),
      ],
      files: [file('packages/a/index.js'), file('packages/b/index.js')],
    });
    expect(type.value).toBe('monorepo');
    expect(type.reason).toContain('packages/a, packages/b');
  });

  it('reads pnpm-workspace.yaml, lerna.json and Cargo workspaces as well', () => {
    const members = [
      packageJson('packages/a/package.json', { name: 'a' }),
      packageJson('packages/b/package.json', { name: 'b' }),
    ];
    const pnpm = { path: 'pnpm-workspace.yaml', text: 'packages:\n  - "packages/*"\n' };
    expect(typeOf({ manifests: [pnpm, ...members] }).value).toBe('monorepo');
    const lerna = { path: 'lerna.json', text: '{"version":"1.0.0"}' };
    expect(typeOf({ manifests: [lerna, ...members] }).value).toBe('monorepo');
    const cargo = [
      { path: 'Cargo.toml', text: '[workspace]\nmembers = ["crates/*"]\n' },
      { path: 'crates/x/Cargo.toml', text: '[package]\nname = "x"\n' },
      { path: 'crates/y/Cargo.toml', text: '[package]\nname = "y"\n' },
    ];
    expect(typeOf({ manifests: cargo }).value).toBe('monorepo');
  });

  it('is not a monorepo for a single workspace member, nor for nested manifests it does not declare', () => {
    const one = typeOf({
      manifests: [
        packageJson('package.json', { workspaces: ['packages/*'], main: 'index.js' }),
        packageJson('packages/a/package.json', { name: 'a' }),
      ],
    });
    expect(one.value).not.toBe('monorepo');
    const examples = typeOf({
      manifests: [
        packageJson('package.json', { name: 'lib', exports: './index.js' }),
        packageJson('examples/app/package.json', { dependencies: { next: '14' } }),
        packageJson('examples/other/package.json', { dependencies: { express: '4' } }),
      ],
    });
    expect(examples.value).toBe('library');
  });

  it('is a web app on a UI framework among the runtime dependencies', () => {
    expect(
      typeOf({ manifests: [packageJson('package.json', { dependencies: { react: '18' } })] }).value,
    ).toBe('web-app');
    expect(typeOf({ manifests: [{ path: 'requirements.txt', text: 'Django==5.0\n' }] }).value).toBe(
      'web-app',
    );
    // SvelteKit's template bundles everything from devDependencies.
    const svelteKit = typeOf({
      manifests: [packageJson('package.json', { devDependencies: { '@sveltejs/kit': '2' } })],
    });
    expect(svelteKit).toEqual({ value: 'web-app', reason: expect.stringContaining('sveltekit') });
  });

  it('is a component library, not a web app, when the UI framework is a peer or the package publishes', () => {
    const peer = typeOf({
      manifests: [
        packageJson('package.json', { exports: './index.js', peerDependencies: { react: '18' } }),
      ],
    });
    expect(peer.value).toBe('library');
    const published = typeOf({
      manifests: [
        packageJson('package.json', { types: 'index.d.ts', dependencies: { react: '18' } }),
      ],
    });
    expect(published).toEqual({ value: 'library', reason: expect.stringContaining('react') });
  });

  it('is an API service on a server framework, even when a bin starts it', () => {
    const service = typeOf({
      manifests: [
        packageJson('package.json', {
          bin: './cli.js',
          main: './server.js',
          dependencies: { express: '4', yargs: '17' },
        }),
      ],
    });
    expect(service).toEqual({ value: 'api-service', reason: expect.stringContaining('express') });
    const go = typeOf({
      manifests: [
        {
          path: 'go.mod',
          text: 'module example.com/api\n\nrequire github.com/gin-gonic/gin v1.9.1\n',
        },
      ],
      files: [file('main.go')],
    });
    expect(go.value).toBe('api-service');
  });

  it('does not count a server framework that is only a development dependency of a library', () => {
    const library = typeOf({
      manifests: [
        packageJson('package.json', { exports: './index.js', devDependencies: { express: '4' } }),
      ],
    });
    expect(library.value).toBe('library');
  });

  it('is a CLI with a declared executable, a CLI framework or a program entry file', () => {
    const bin = typeOf({
      manifests: [packageJson('package.json', { name: 'tool', bin: { tool: 'bin/tool.js' } })],
    });
    expect(bin).toEqual({ value: 'cli', reason: expect.stringContaining('bin "tool"') });
    const cobra = typeOf({
      manifests: [
        {
          path: 'go.mod',
          text: 'module example.com/tool\n\nrequire github.com/spf13/cobra v1.8.0\n',
        },
      ],
    });
    expect(cobra.value).toBe('cli');
    const scripts = typeOf({
      manifests: [
        {
          path: 'pyproject.toml',
          text: '[project]\nname = "t"\n[project.scripts]\nt = "t:main"\n',
        },
      ],
    });
    expect(scripts.value).toBe('cli');
    expect(
      typeOf({
        manifests: [{ path: 'Cargo.toml', text: '[package]\nname = "t"\n' }],
        files: [file('src/main.rs')],
      }).value,
    ).toBe('cli');
  });

  it('is a library when it exports code and shows no app or command', () => {
    expect(typeOf({ manifests: [packageJson('package.json', { main: 'index.js' })] }).value).toBe(
      'library',
    );
    const python = typeOf({
      manifests: [
        {
          path: 'pyproject.toml',
          text: '[build-system]\nrequires = ["hatchling"]\n[project]\nname = "p"\n',
        },
      ],
    });
    expect(python.value).toBe('library');
    const go = typeOf({ manifests: [{ path: 'go.mod', text: 'module example.com/lib\n' }] });
    expect(go.value).toBe('library');
  });

  it('is unknown without a manifest, and says so', () => {
    const type = typeOf({ files: [file('a.py')] });
    expect(type).toEqual({ value: 'unknown', reason: expect.stringContaining('no manifest') });
  });

  it('names manifests that do not read instead of guessing from them', () => {
    const type = typeOf({ manifests: [{ path: 'package.json', text: '{ not json' }] });
    expect(type.value).toBe('unknown');
    expect(type.reason).toContain('package.json did not read');
  });
});
