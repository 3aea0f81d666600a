import { baseName } from '../../analysis/repository-paths.js';
import { type DependencyScope, declare, type ManifestReader } from './manifest-reading.js';

/**
 * Maven's `pom.xml`, read by pattern rather than with an XML parser (a POM's dependency
 * entries are flat, and a parser would be one more dependency for one file type): comments are
 * dropped, then `<dependencyManagement>` (versions only, adds nothing), `<build>` and
 * `<reporting>` (plugins and their dependencies, build-time) are cut out, and every remaining
 * `<dependency>` names `groupId:artifactId`, as written (`${…}` properties are not expanded).
 * `<scope>test</scope>` is development. A text without a `<project>` element is a problem.
 */
export const mavenPom: ManifestReader = {
  ecosystem: 'maven',
  reads: (path) => baseName(path) === 'pom.xml',
  read(text) {
    const xml = text.replace(/<!--[\s\S]*?-->/g, '');
    if (!/<project[\s>]/.test(xml)) return { ok: false, problem: 'no <project> element' };
    const kept = ['dependencyManagement', 'build', 'reporting'].reduce(
      (rest, section) => rest.replace(new RegExp(`<${section}>[\\s\\S]*?</${section}>`, 'g'), ''),
      xml,
    );
    const dependencies = new Map<string, DependencyScope>();
    for (const match of kept.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
      const body = match[1] ?? '';
      const group = elementText(body, 'groupId');
      const artifact = elementText(body, 'artifactId');
      if (group === '' || artifact === '') continue;
      const scope = elementText(body, 'scope') === 'test' ? 'development' : 'runtime';
      declare(dependencies, `${group}:${artifact}`, scope);
    }
    return { ok: true, dependencies };
  },
};

function elementText(body: string, element: string): string {
  return new RegExp(`<${element}>\\s*([^<]*?)\\s*</${element}>`).exec(body)?.[1] ?? '';
}
