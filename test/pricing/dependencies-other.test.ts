import { describe, expect, it } from '@jest/globals';
import { itemsOf, priceOf } from './pricing-support.js';

describe('Python, Go and Maven dependencies (direct only)', () => {
  it('prices a line added to requirements.txt as 1 package', async () => {
    const base = '# pinned\nrequests==2.31.0\n';
    const head = `${base}Flask_Login[extra] >= 0.6 ; python_version > "3.8"  # auth\n-r other.txt\n--index-url https://x\n`;
    const priced = await priceOf([{ path: 'requirements.txt', base, head }]);
    expect(priced.dependencies).toEqual([
      {
        name: 'flask-login',
        manifest: 'requirements.txt',
        transitivePackages: null,
        installScript: false,
        points: 5,
      },
    ]);
    expect(priced.notes).toContain(
      'requirements.txt: no changed python lockfile records flask-login: each counts as 1 package.',
    );
  });

  it('weights requirements-dev.txt as development', async () => {
    const priced = await priceOf([{ path: 'requirements-dev.txt', head: 'pytest\n' }]);
    expect(itemsOf(priced, 'dependencies').map((item) => item.points)).toEqual([1.25]);
  });

  it('reads pyproject.toml: PEP 621, dependency groups and Poetry', async () => {
    const base = '[project]\nname = "app"\ndependencies = ["requests>=2"]\n';
    const head = [
      '[project]',
      'name = "app"',
      'dependencies = [',
      '  "requests>=2",',
      '  "httpx[http2]>=0.27",  # comment',
      ']',
      '[project.optional-dependencies]',
      'yaml = ["PyYAML"]',
      '[dependency-groups]',
      'test = ["pytest"]',
      '[tool.poetry.dependencies]',
      'python = "^3.11"',
      'rich = { version = "^13" }',
      '',
    ].join('\n');
    const priced = await priceOf([{ path: 'pyproject.toml', base, head }]);
    expect(priced.dependencies.map((added) => [added.name, added.points])).toEqual([
      ['httpx', 5],
      ['pytest', 1.25],
      ['pyyaml', 5],
      ['rich', 5],
    ]);
  });

  it('turns a malformed pyproject.toml into a note', async () => {
    const priced = await priceOf([
      { path: 'pyproject.toml', head: '[project\ndependencies = [\n' },
    ]);
    expect(priced.dependencies).toEqual([]);
    expect(priced.notes).toEqual([
      expect.stringMatching(/^pyproject\.toml: its dependencies are not read \(not valid TOML/),
    ]);
  });

  it('prices a go.mod require addition, leaving indirect ones out', async () => {
    const base = 'module example.com/app\n\ngo 1.22\n\nrequire github.com/a/b v1.0.0\n';
    const head = [
      'module example.com/app',
      '',
      'go 1.22',
      '',
      'require github.com/a/b v1.0.0',
      '',
      'require (',
      '\tgithub.com/spf13/cobra v1.8.0',
      '\tgolang.org/x/sys v0.20.0 // indirect',
      ')',
      '',
    ].join('\n');
    const priced = await priceOf([{ path: 'go.mod', base, head }]);
    expect(priced.dependencies).toEqual([
      {
        name: 'github.com/spf13/cobra',
        manifest: 'go.mod',
        transitivePackages: null,
        installScript: false,
        points: 5,
      },
    ]);
  });

  it('prices a pom.xml dependency, leaving managed and plugin ones out', async () => {
    const dependency = (group: string, artifact: string, scope = '') =>
      `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId>${scope}</dependency>`;
    const pom = (deps: string) =>
      [
        '<project>',
        `<dependencyManagement><dependencies>${dependency('org.managed', 'bom')}</dependencies></dependencyManagement>`,
        `<dependencies>${deps}</dependencies>`,
        '<!-- <dependency><groupId>commented</groupId><artifactId>out</artifactId></dependency> -->',
        `<build><plugins><plugin><dependencies>${dependency('org.plugin', 'dep')}</dependencies></plugin></plugins></build>`,
        '</project>',
      ].join('\n');
    const base = pom(dependency('com.google.guava', 'guava'));
    const head = pom(
      `${dependency('com.google.guava', 'guava')}${dependency('com.squareup.okhttp3', 'okhttp')}${dependency('org.junit', 'junit', '<scope>test</scope>')}`,
    );
    const priced = await priceOf([{ path: 'service/pom.xml', base, head }]);
    expect(priced.dependencies.map((added) => [added.name, added.points])).toEqual([
      ['com.squareup.okhttp3:okhttp', 5],
      ['org.junit:junit', 1.25],
    ]);
  });

  it('weights a manifest under paths.tests (a fixture) like test code', async () => {
    const priced = await priceOf([
      { path: 'test/fixtures/app/requirements.txt', head: 'django\n' },
    ]);
    expect(priced.dependencies.map((added) => added.points)).toEqual([1.25]);
  });
});
