import { describe, expect, it } from '@jest/globals';
import { inferProject } from '../../src/init/infer-project.js';
import { file, packageJson, survey } from './survey-support.js';

const infer = (parts: Parameters<typeof survey>[0]) => inferProject(survey(parts));

describe('languages', () => {
  it('lists languages by code lines, largest first, TSX counted as TypeScript', () => {
    const { languages } = infer({
      files: [file('src/a.ts', 600), file('src/b.tsx', 300), file('scripts/x.py', 100)],
    });
    expect(languages.value).toEqual([
      { language: 'typescript', lines: 900, files: 2 },
      { language: 'python', lines: 100, files: 1 },
    ]);
    expect(languages.reason).toBe('by code lines: typescript 900 (90 %), python 100 (10 %)');
  });

  it('leaves out a language under 1 % of the lines (a stray script)', () => {
    const { languages } = infer({
      files: [file('src/a.ts', 5000), file('scripts/release.js', 20)],
    });
    expect(languages.value.map((share) => share.language)).toEqual(['typescript']);
  });

  it('leaves out the root’s tool configuration files, whatever their share', () => {
    const files = [file('src/a.ts', 40), file('eslint.config.js', 30), file('.prettierrc.cjs', 5)];
    expect(infer({ files }).languages.value.map((share) => share.language)).toEqual(['typescript']);
    const script = infer({ files: [file('src/a.ts', 40), file('build.js', 30)] });
    expect(script.languages.value.map((share) => share.language)).toEqual([
      'typescript',
      'javascript',
    ]);
  });

  it('lists languages AUREUS does not analyse by their files, after the analysed ones', () => {
    const rust = ['src/a.rs', 'src/b.rs', 'src/c.rs'].map((path) => file(path));
    const { languages } = infer({ files: [...rust, file('build.py', 5), file('one.rb')] });
    expect(languages.value).toEqual([
      { language: 'python', lines: 5, files: 1 },
      { language: 'rust', lines: null, files: 3 },
    ]);
    expect(languages.reason).toContain('rust 3 files (not analysed)');
  });
});

describe('frameworks', () => {
  it('names frameworks from runtime dependencies of every ecosystem', () => {
    const { frameworks } = infer({
      manifests: [
        packageJson('package.json', { dependencies: { next: '14', react: '18' } }),
        { path: 'requirements.txt', text: 'fastapi>=0.100\n' },
        { path: 'go.mod', text: 'module m\n\nrequire github.com/labstack/echo/v4 v4.11.0\n' },
      ],
    });
    expect(frameworks.value).toEqual(['next', 'react', 'fastapi', 'echo']);
    expect(frameworks.reason).toContain('echo (github.com/labstack/echo/v4)');
  });

  it('reads Maven and Gradle coordinates', () => {
    const pom = `<project><artifactId>svc</artifactId><dependencies><dependency>
      <groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId>
      </dependency></dependencies></project>`;
    expect(infer({ manifests: [{ path: 'pom.xml', text: pom }] }).frameworks.value).toEqual([
      'spring-boot',
    ]);
    const gradle = "dependencies {\n  implementation 'info.picocli:picocli:4.7.5'\n}\n";
    const inferred = infer({ manifests: [{ path: 'build.gradle', text: gradle }] });
    expect(inferred.frameworks.value).toEqual(['picocli']);
  });

  it('does not take a peer dependency, a development dependency of a published package, or react under ink', () => {
    const { frameworks } = infer({
      manifests: [
        packageJson('package.json', {
          main: 'index.js',
          peerDependencies: { vue: '3' },
          devDependencies: { express: '4' },
        }),
      ],
    });
    expect(frameworks.value).toEqual([]);
    expect(frameworks.reason).toBe('no known framework among the runtime dependencies');
    const ink = infer({
      manifests: [packageJson('package.json', { dependencies: { ink: '4', react: '18' } })],
    });
    expect(ink.frameworks.value).toEqual(['ink']);
  });
});

describe('test runner and command', () => {
  it('runs the package.json test script through the lockfile’s client', () => {
    const { testRunner, testCommand } = infer({
      manifests: [
        packageJson('package.json', {
          scripts: { test: 'vitest run' },
          devDependencies: { vitest: '1', jest: '29' },
        }),
      ],
      files: [file('pnpm-lock.yaml')],
    });
    expect(testRunner).toEqual({ value: 'vitest', reason: 'the test script runs vitest' });
    expect(testCommand.value).toEqual(['pnpm', 'test']);
    expect(testCommand.reason).toContain('pnpm (pnpm-lock.yaml)');
  });

  it('ignores npm’s placeholder test script and falls back to the runner’s command', () => {
    const { testCommand, testRunner } = infer({
      manifests: [
        packageJson('package.json', {
          scripts: { test: 'echo "Error: no test specified" && exit 1' },
          devDependencies: { jest: '29' },
        }),
      ],
    });
    expect(testRunner.value).toBe('jest');
    expect(testCommand.value).toEqual(['npx', 'jest']);
  });

  it('finds pytest by its configuration, go test and cargo test by the manifest, junit through a wrapper', () => {
    const pytest = infer({
      manifests: [{ path: 'pyproject.toml', text: '[tool.pytest.ini_options]\naddopts = "-q"\n' }],
    });
    expect(pytest.testCommand.value).toEqual(['python', '-m', 'pytest']);
    const conftest = infer({
      manifests: [{ path: 'requirements.txt', text: 'requests\n' }],
      files: [file('tests/conftest.py')],
    });
    expect(conftest.testRunner).toEqual({ value: 'pytest', reason: 'conftest.py configures it' });
    const go = infer({ manifests: [{ path: 'go.mod', text: 'module m\n' }] });
    expect(go.testCommand.value).toEqual(['go', 'test', './...']);
    const cargo = infer({ manifests: [{ path: 'Cargo.toml', text: '[package]\nname = "c"\n' }] });
    expect(cargo.testCommand.value).toEqual(['cargo', 'test']);
    const maven = infer({
      manifests: [{ path: 'pom.xml', text: '<project><artifactId>a</artifactId></project>' }],
      files: [file('mvnw')],
    });
    expect(maven.testCommand.value).toEqual(['./mvnw', 'test']);
  });

  it('finds no test command where there is no evidence, and says so', () => {
    const { testRunner, testCommand } = infer({
      manifests: [packageJson('package.json', { main: 'index.js' })],
    });
    expect(testRunner.value).toBeNull();
    expect(testCommand).toEqual({ value: [], reason: 'no test script and no test runner found' });
  });
});

describe('project name', () => {
  it('takes the manifest’s name, else the folder’s', () => {
    expect(infer({ manifests: [packageJson('package.json', { name: '@a/b' })] }).name).toEqual({
      value: '@a/b',
      reason: 'package.json name',
    });
    expect(infer({}).name).toEqual({ value: 'fixture', reason: 'the repository folder' });
  });
});
