// Java's import graph against jdeps on real code (scripts/reference/java-reference.mjs, whose
// header states the two rules a difference must meet). Runs the built CLI and the JDK's javac,
// jdeps and javap; the JDK's sources come from the JDK or Debian's openjdk-17-source.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  aureusGraph,
  checkJavaReference,
  compareJavaGraphs,
  jdepsGraph,
} from '../../../scripts/reference/java-reference.mjs';
import { isolateGit } from '../../support/git-fixture.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('Java import graph against jdeps', () => {
  let restoreGit: () => Promise<void>;
  beforeAll(async () => {
    restoreGit = await isolateGit();
  });
  afterAll(() => restoreGit());

  it("equals jdeps's file edges on the JDK's HTTP server, each difference explained", () => {
    const result = checkJavaReference();
    expect(result.problems).toEqual([]);
    // Every file javac compiled, and no other (`problems` says when the two differ); how many
    // there are follows the JDK update Debian ships: 43 in 17.0.15, 42 in 17.0.21.
    expect(result.files).toBeGreaterThanOrEqual(40);
    expect(result.aureus).toBeGreaterThan(100);
    expect(result.jdeps).toBe(result.aureus + result.explained.inferred - result.explained.inlined);
    expect(result.cycles.length).toBeGreaterThan(0);
  });

  it('explains a constant javac inlines, and fails on a name the file writes', async () => {
    const folder = await makeTempDir('java-reference');
    try {
      const repo = join(folder.path, 'repo');
      mkdirSync(join(repo, 'p'), { recursive: true });
      writeFileSync(join(folder.path, 'aureus-policy.yaml'), 'version: 1\n');
      const write = (file: string, text: string) => writeFileSync(join(repo, 'p', file), text);
      write(
        'Limits.java',
        'package p;\npublic class Limits { public static final int MAX = 3; }\n',
      );
      write(
        'Reader.java',
        'package p;\nclass Reader {\n  int f(int n) { switch (n) { case Limits.MAX: return 1; default: return 0; } }\n}\n',
      );
      write('Writer.java', 'package p;\nclass Writer { Object o = new Helper(); }\n');
      write('Helper.java', 'package p;\nclass Helper {}\n');
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.name=a', '-c', 'user.email=a@localhost', 'commit', '-q', '-m', 'fixture');
      const aureus = aureusGraph(repo);
      const jdeps = jdepsGraph(repo);
      expect(compareJavaGraphs(repo, aureus, jdeps)).toMatchObject({
        explained: { inferred: 0, inlined: 1 },
        problems: [],
      });
      const missing = new Set([...aureus.edges].filter((edge) => !edge.startsWith('p/Writer')));
      expect(compareJavaGraphs(repo, { ...aureus, edges: missing }, jdeps).problems).toEqual([
        'only jdeps: p/Writer.java -> p/Helper.java (p/Writer.java writes Helper)',
      ]);
    } finally {
      await folder.remove();
    }
  });
});
