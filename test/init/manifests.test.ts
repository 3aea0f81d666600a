import { describe, expect, it } from '@jest/globals';
import {
  isManifest,
  readProjectManifests,
} from '../../src/init/manifests/read-project-manifests.js';

const read = (...manifests: [string, string][]) =>
  readProjectManifests(manifests.map(([path, text]) => ({ path, text })));

describe('readProjectManifests', () => {
  it('knows the manifests by name, wherever they are', () => {
    const names = ['package.json', 'a/pyproject.toml', 'requirements-dev.txt', 'go.work'];
    expect(names.every(isManifest)).toBe(true);
    expect(
      ['settings.gradle.kts', 'x/build.gradle', 'Cargo.toml', 'lerna.json'].every(isManifest),
    ).toBe(true);
    expect(['package-lock.json', 'README.md', 'tsconfig.json'].some(isManifest)).toBe(false);
  });

  it('reads workspace members from go.work, settings.gradle and Maven modules', () => {
    const go = read(
      ['go.work', 'go 1.22\n\nuse (\n\t./api // the server\n\t./cli\n)\n'],
      ['api/go.mod', 'module a\n'],
    );
    expect(go.workspaces).toEqual({
      source: 'go.work',
      patterns: ['api', 'cli'],
      members: ['api'],
    });
    const gradle = read([
      'settings.gradle.kts',
      'rootProject.name = "shop"\ninclude(":app", ":lib:core")\n',
    ]);
    expect(gradle.name).toEqual({ value: 'shop', source: 'settings.gradle.kts' });
    expect(gradle.workspaces?.patterns).toEqual(['app', 'lib/core']);
    const maven = read([
      'pom.xml',
      '<project><parent><artifactId>p</artifactId></parent><artifactId>root</artifactId><modules><module>core</module><module>web</module></modules></project>',
    ]);
    expect(maven.name?.value).toBe('root');
    expect(maven.workspaces?.patterns).toEqual(['core', 'web']);
  });

  it('merges the dependencies of workspace members, not of other nested manifests', () => {
    const manifests = read(
      ['package.json', JSON.stringify({ workspaces: { packages: ['./apps/*/'] } })],
      ['apps/web/package.json', JSON.stringify({ dependencies: { vue: '3' } })],
      ['examples/x/package.json', JSON.stringify({ dependencies: { express: '4' } })],
    );
    expect(manifests.workspaces?.patterns).toEqual(['apps/*']);
    expect(manifests.dependencies).toEqual([{ name: 'vue', scope: 'runtime', ecosystem: 'npm' }]);
  });

  it('reads executables from the Gradle application plugin, Poetry scripts and Cargo [[bin]]', () => {
    expect(read(['build.gradle', "plugins {\n  id 'application'\n}\n"]).executables).toEqual([
      'build.gradle the Gradle `application` plugin',
    ]);
    const poetry = read([
      'pyproject.toml',
      '[tool.poetry]\nname = "p"\n[tool.poetry.scripts]\np = "p:main"\n[tool.poetry.dependencies]\npython = "^3.11"\nclick = "^8"\n',
    ]);
    expect(poetry.name?.value).toBe('p');
    expect(poetry.executables).toEqual(['pyproject.toml [project.scripts] "p"']);
    expect(poetry.dependencies).toEqual([{ name: 'click', scope: 'runtime', ecosystem: 'python' }]);
    const cargo = read(['Cargo.toml', '[package]\nname = "c"\n[[bin]]\nname = "cc"\n[lib]\n']);
    expect(cargo.executables).toEqual(['Cargo.toml [[bin]] "cc"']);
    expect(cargo.libraryEntries).toEqual(['Cargo.toml [lib]']);
  });

  it('lists manifests that do not read, and takes nothing from them', () => {
    const manifests = read(
      ['package.json', '[1, 2]'],
      ['Cargo.toml', 'not = = toml'],
      ['go.mod', 'no module here\n'],
      ['pom.xml', '<notaproject/>'],
    );
    expect(manifests.unreadable).toEqual(['package.json', 'Cargo.toml', 'go.mod', 'pom.xml']);
    expect(manifests.root).toEqual([]);
  });
});
