import type { FrameworkMatch } from './detect-frameworks.js';
import type { FrameworkKind } from './framework-table.js';
import type { ProjectManifests } from './manifests/read-project-manifests.js';
import type { Inferred, ProjectType } from './project-intelligence.js';
import type { SurveyFile } from './project-survey.js';
import { listed, plural } from './wording.js';

/** One member is a wrapper folder, not a repository of packages. */
const MIN_MONOREPO_MEMBERS = 2;

/**
 * Fields that only a package meant to be imported has (`main` is not one: `npm init` writes it
 * into every package.json, apps included). A UI framework in such a package's dependencies
 * makes a component library, not a web app.
 */
const PUBLISHING_FIELDS = /\b(exports|module|types|typings)$/;

/** Entry files that make a program: a Go main package, a Rust binary, a Django project. */
const PROGRAM_FILES = /^(main\.go|cmd\/[^/]+\/main\.go|src\/main\.rs|src\/bin\/[^/]+\.rs)$/;
const WEB_ENTRY_FILES = /^(index\.html|public\/index\.html|manage\.py)$/;
const SERVICE_ENTRY_FILES = /^([^/]+\/)?(wsgi|asgi)\.py$/;

/**
 * The kind of project, by the first rule whose evidence is there, in this order: monorepo
 * (workspace members), web app (a UI framework), API service (a server framework: a command
 * that starts a server is how the service is launched), CLI (a declared executable, a CLI
 * framework or a program entry file), library (what it exports), then unknown.
 */
export function detectProjectType(
  manifests: ProjectManifests,
  frameworks: readonly FrameworkMatch[],
  files: readonly SurveyFile[],
): Inferred<ProjectType> {
  const paths = files.map((file) => file.path);
  const { workspaces } = manifests;
  if (workspaces !== null && workspaces.members.length >= MIN_MONOREPO_MEMBERS) {
    return {
      value: 'monorepo',
      reason: `${workspaces.source} declares workspaces (${workspaces.patterns.join(', ')}) holding ${plural(workspaces.members.length, 'package')}: ${listed(workspaces.members)}`,
    };
  }
  const of = (...kinds: FrameworkKind[]) => frameworks.filter((f) => kinds.includes(f.kind));
  const publishing = manifests.libraryEntries.filter((entry) => PUBLISHING_FIELDS.test(entry));
  const ui = of('fullstack', 'frontend');
  if (ui.length > 0 && publishing.length === 0) {
    return { value: 'web-app', reason: `it runs on ${names(ui)}, a web UI framework` };
  }
  const server = of('server');
  if (server.length > 0) {
    return { value: 'api-service', reason: `it runs on ${names(server)}, a server framework` };
  }
  const programs = paths.filter((path) => PROGRAM_FILES.test(path));
  const commands = [...of('cli').map((f) => `uses ${f.name}`), ...programs];
  if (manifests.executables.length > 0 || (commands.length > 0 && publishing.length === 0)) {
    const evidence = [...manifests.executables, ...commands];
    return { value: 'cli', reason: `it installs or builds a command: ${listed(evidence, 3)}` };
  }
  if (publishing.length > 0) {
    const builds = ui.length > 0 ? ` (a component library for ${names(ui)})` : '';
    return { value: 'library', reason: `it publishes ${listed(publishing)}${builds}` };
  }
  const web = paths.filter((path) => WEB_ENTRY_FILES.test(path) || SERVICE_ENTRY_FILES.test(path));
  if (web.length > 0) {
    const service = web.some((path) => SERVICE_ENTRY_FILES.test(path));
    return {
      value: service ? 'api-service' : 'web-app',
      reason: `no framework in the manifests, but ${listed(web)} is the entry of a ${service ? 'service' : 'web app'}`,
    };
  }
  const exported = [...manifests.libraryEntries, ...paths.filter((p) => p === 'src/lib.rs')];
  if (exported.length > 0)
    return { value: 'library', reason: `it exports code: ${listed(exported)}` };
  const jvmOrGo = manifests.ecosystems.filter((e) => e === 'go' || e === 'maven' || e === 'gradle');
  if (jvmOrGo.length > 0) {
    return {
      value: 'library',
      reason: `a ${jvmOrGo.join('/')} build with no program entry, server framework or application plugin`,
    };
  }
  return {
    value: 'unknown',
    reason:
      manifests.root.length === 0
        ? 'no manifest (package.json, pyproject.toml, go.mod, …) at the repository root'
        : `${manifests.root.join(', ')} shows no framework, executable or exported entry`,
  };
}

function names(frameworks: readonly FrameworkMatch[]): string {
  return listed(frameworks.map((framework) => framework.name));
}
