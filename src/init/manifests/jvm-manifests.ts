import { mavenPom } from '../../pricing/dependencies/maven-pom.js';
import {
  type DeclaredDependency,
  fromScopes,
  type ManifestReader,
  manifestFacts,
} from './manifest-facts.js';

/** pom.xml: the project's own artifactId, its `<module>`s, dependencies from the pricing's reader. */
export const pomXml: ManifestReader = {
  ecosystem: 'maven',
  reads: (fileName) => fileName === 'pom.xml',
  read(text, fileName) {
    const reading = mavenPom.read(text, fileName);
    if (!reading.ok) return null;
    // The project's own artifactId is the first one outside <parent> and the dependency lists.
    const own = text
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(parent|dependencies|dependencyManagement|build|profiles)>[\s\S]*?<\/\1>/g, '');
    const modules = [...own.matchAll(/<module>\s*([^<]+?)\s*<\/module>/g)].flatMap((match) =>
      match[1] === undefined ? [] : [match[1]],
    );
    return manifestFacts({
      name: /<artifactId>\s*([^<]+?)\s*<\/artifactId>/.exec(own)?.[1] ?? null,
      dependencies: fromScopes(reading.dependencies),
      workspaces: modules,
    });
  },
};

/**
 * build.gradle / build.gradle.kts, read by pattern like the POM: `group:artifact` coordinates of
 * the dependency configurations (test ones are development), and the `application` plugin,
 * which makes a runnable program.
 */
export const buildGradle: ManifestReader = {
  ecosystem: 'gradle',
  reads: (fileName) => /^build\.gradle(\.kts)?$/.test(fileName),
  read(text) {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    const dependencies: DeclaredDependency[] = [];
    const pattern =
      /\b(implementation|api|compile|runtimeOnly|compileOnly|testImplementation|testRuntimeOnly|testCompile)\s*\(?\s*["']([^:"'\s]+):([^:"'\s]+)/g;
    for (const [, configuration = '', group, artifact] of code.matchAll(pattern)) {
      const scope = configuration.startsWith('test') ? 'development' : 'runtime';
      dependencies.push({ name: `${group}:${artifact}`, scope });
    }
    const application = /\bid\s*\(?\s*["']application["']|^\s*application\b/m.test(code);
    return manifestFacts({
      dependencies,
      executables: application ? ['the Gradle `application` plugin'] : [],
    });
  },
};

/** settings.gradle / settings.gradle.kts: the root project's name and the included projects. */
export const settingsGradle: ManifestReader = {
  ecosystem: 'gradle',
  reads: (fileName) => /^settings\.gradle(\.kts)?$/.test(fileName),
  read(text) {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    const included = [...code.matchAll(/^\s*include\b(.*)$/gm)].flatMap((match) =>
      [...(match[1] ?? '').matchAll(/["']:?([^"']+)["']/g)].flatMap((name) =>
        name[1] === undefined ? [] : [name[1].replaceAll(':', '/')],
      ),
    );
    const name = /rootProject\.name\s*=\s*["']([^"']+)["']/.exec(code)?.[1] ?? null;
    return manifestFacts({ name, workspaces: included });
  },
};
