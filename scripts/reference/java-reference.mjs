// Java's import graph against jdeps, the JDK's own dependency tool, on real Java code: the
// sources of the JDK's `jdk.httpserver` module (`com.sun.net.httpserver`, its `spi`, and
// `sun.net.httpserver`: 42 or 43 files, by JDK update), which compile alone against `java.base` and `java.logging`.
//
// The sources come from the JDK's `lib/src.zip` beside the `javac` on the PATH, or, when that JDK
// ships none (Debian splits it out), from Debian's `openjdk-17-source` package, downloaded with
// `apt-get download` and unpacked into the reference folder: the machine's JDK is not upgraded
// to the package's version under whoever else uses it. A missing `javac`/`jdeps` is installed
// with apt-get as root (openjdk-17-jdk-headless), else the check fails saying what to install.
//
// jdeps's side: `javac` compiles the files to a temporary folder, `jdeps -verbose:class
// -filter:none` lists every class each class's bytecode refers to, and `javap` names the source
// file each class was compiled from (nested `A$B` and secondary top-level types map to theirs),
// so class edges become file edges (a file's edges to itself dropped). AUREUS's side: the edges
// of `aureus analyze --format json`. The edges are compared exactly; an edge on one side only
// fails the check unless one of these two rules, each verified on the source, explains it:
//
//   inferred  jdeps only. Bytecode names the types javac inferred, not only those the code
//             writes: `exchange.getServerImpl().log()` names ServerImpl as the owner of `log`
//             in a file that never writes "ServerImpl". AUREUS reads names written in the
//             source. Verified: the importing file's code (comments and literals removed)
//             writes none of the simple names of the classes compiled from the target file,
//             but for names it declares itself (its own nested `Logger` is not the target's).
//   inlined   AUREUS only. javac copies a compile-time constant (`static final` with a constant
//             value, as `javap -constants` shows it) into the class that reads it. JDK 17's
//             javac still names the constant's class where the constant is an expression, but
//             not in a `case` label or an annotation's argument; an unused import leaves no
//             trace either. AUREUS keeps both: the source depends on the target. Verified: every
//             place the importing file writes a name of the target's classes is an import
//             declaration or `Name.CONSTANT` with CONSTANT one of that class's constants.
//             (On jdk.httpserver no edge needs this rule; the test's own fixture does.)
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceDir } from './codebases.mjs';
import { git } from './reference-git.mjs';

const AUREUS = fileURLToPath(new URL('../../bin/aureus.js', import.meta.url));

/** The code base: packages of one module of the JDK's sources, and what they compile against. */
export const JAVA_CODEBASE = {
  module: 'jdk.httpserver',
  packages: ['com/sun/net/httpserver', 'sun/net/httpserver'],
  modules: 'java.base,java.logging',
};

const SOURCE_PACKAGE = 'openjdk-17-source';
const JDK_PACKAGE = 'openjdk-17-jdk-headless';

/** javac and jdeps, installed from Debian as root when missing. */
function ensureJdk() {
  const has = (tool) => spawnSync(tool, ['-version'], { stdio: 'ignore' }).status === 0;
  if (has('javac') && has('jdeps')) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root)
    throw new Error(
      `the Java reference check needs javac and jdeps. Install a JDK: sudo apt-get install -y ${JDK_PACKAGE}`,
    );
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', JDK_PACKAGE]]) {
    if (spawnSync('apt-get', args, { stdio: 'inherit' }).status !== 0)
      throw new Error(`"apt-get ${args.join(' ')}" failed; run it yourself, then the check.`);
  }
}

/** The JDK sources' zip: beside javac's JDK, else Debian's source package, unpacked once. */
function jdkSourcesZip() {
  const javac = execFileSync('sh', ['-c', 'command -v javac'], { encoding: 'utf8' }).trim();
  const beside = join(dirname(dirname(realpathSync(javac))), 'lib', 'src.zip');
  if (existsSync(beside)) return beside;
  const folder = join(referenceDir(), SOURCE_PACKAGE);
  const unpacked = join(folder, 'unpacked');
  const zip = join(unpacked, 'usr', 'lib', 'jvm', 'openjdk-17', 'lib', 'src.zip');
  if (existsSync(zip)) return zip;
  // A download or an unpacking cut short starts again from nothing.
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const download = spawnSync('apt-get', ['download', SOURCE_PACKAGE], {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deb = readdirSync(folder).find((name) => name.endsWith('.deb'));
  if (download.status !== 0 || deb === undefined)
    throw new Error(
      `the JDK has no ${beside} and "apt-get download ${SOURCE_PACKAGE}" failed: install ${SOURCE_PACKAGE} (Debian) or a JDK that ships lib/src.zip.`,
    );
  execFileSync('dpkg-deb', ['-x', join(folder, deb), `${unpacked}.partial`]);
  renameSync(`${unpacked}.partial`, unpacked);
  return zip;
}

/** The code base as a git repository of its own, outside this one; made once. */
export function prepareJavaCodebase() {
  ensureJdk();
  const folder = join(referenceDir(), JAVA_CODEBASE.module);
  const repo = join(folder, JAVA_CODEBASE.module);
  // The policy is written last: without it, a first run stopped half-way, and it starts again.
  if (existsSync(policyOf(repo))) return repo;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const entries = JAVA_CODEBASE.packages.map((path) => `${JAVA_CODEBASE.module}/${path}`);
  execFileSync('jar', ['xf', jdkSourcesZip(), ...entries], { cwd: folder });
  git(repo, ['init', '-q']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', JAVA_CODEBASE.module]);
  writeFileSync(policyOf(repo), 'version: 1\n');
  return repo;
}

function javaFiles(repo) {
  return readdirSync(repo, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.java'))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
    .sort();
}

/**
 * jdeps's file edges (`from\u0000to`), and per file the classes compiled from it (simple names)
 * and per class its compile-time constants.
 */
export function jdepsGraph(repo) {
  const out = mkdtempSync(join(tmpdir(), 'aureus-jdeps-'));
  try {
    const files = javaFiles(repo);
    const compile = ['--limit-modules', JAVA_CODEBASE.modules, '-implicit:none', '-nowarn'];
    const javac = spawnSync('javac', [...compile, '-d', out, ...files], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (javac.status !== 0) throw new Error(`javac could not compile ${repo}:\n${javac.stderr}`);
    const classFiles = readdirSync(out, { recursive: true })
      .filter((name) => String(name).endsWith('.class'))
      .map((name) => join(out, String(name)));
    const classes = classesBySource(
      execFileSync('javap', ['-p', '-constants', ...classFiles], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    const listing = execFileSync('jdeps', ['-verbose:class', '-filter:none', out], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const edges = new Set();
    for (const line of listing.split('\n')) {
      const [from, arrow, to] = line.trim().split(/\s+/);
      const fromFile = classes.get(from ?? '')?.file;
      const toFile = classes.get(to ?? '')?.file;
      if (arrow === '->' && fromFile && toFile && fromFile !== toFile)
        edges.add(`${fromFile}\u0000${toFile}`);
    }
    return { edges, classes, files };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** javap's listing: class name → its source file (package folder + SourceFile) and constants. */
function classesBySource(listing) {
  const classes = new Map();
  let current;
  for (const line of listing.split('\n')) {
    const source = /^Compiled from "(.+)"$/.exec(line);
    if (source !== null) {
      current = { source: source[1] };
      continue;
    }
    const declared = /\b(?:class|interface|enum|record)\s+([\w.$]+)/.exec(line);
    if (current !== undefined && current.file === undefined && declared !== null) {
      const name = declared[1];
      const folder = name.slice(0, name.lastIndexOf('.')).replaceAll('.', '/');
      current.file = `${folder}/${current.source}`;
      current.constants = new Set();
      classes.set(name, current);
      continue;
    }
    const constant = /\bstatic final\b.*?\s([\w$]+) = .*;$/.exec(line);
    if (constant !== null && current?.constants !== undefined) current.constants.add(constant[1]);
  }
  return classes;
}

/** AUREUS's file edges (`from\u0000to`) and the files it analysed. */
export function aureusGraph(repo) {
  const stdout = execFileSync(
    process.execPath,
    [AUREUS, 'analyze', '--repo', repo, '--format', 'json', '--policy', policyOf(repo)],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const analysis = JSON.parse(stdout);
  return {
    edges: new Set(analysis.edges.map(({ from, to }) => `${from}\u0000${to}`)),
    sourceFiles: analysis.stats.sourceFiles,
    cycles: analysis.cycles,
  };
}

function policyOf(repo) {
  return join(dirname(repo), 'aureus-policy.yaml');
}

/** Java code without comments, string and character literals (text blocks included). */
function codeOf(text) {
  return text.replace(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g,
    ' ',
  );
}

/** Every place `code` writes one of `names` as a whole word, with what follows it. */
function writtenNames(code, names) {
  const found = [];
  for (const name of names) {
    const word = new RegExp(
      `(?<![\\w$.])${name.replaceAll('$', '\\$')}(?![\\w$])(\\s*\\.\\s*([\\w$]+))?`,
      'g',
    );
    for (const match of code.matchAll(word))
      found.push({ name, at: match.index, member: match[2] });
  }
  return found;
}

/**
 * The comparison: `{ aureus, jdeps, explained, problems }`, edges as `from -> to`, each
 * difference either explained by its rule (see the header) or a problem.
 */
export function compareJavaGraphs(repo, aureus, jdeps) {
  const classesOf = (file) => [...jdeps.classes].filter(([, info]) => info.file === file);
  const simpleNames = (file) =>
    classesOf(file)
      .map(([name]) =>
        name
          .slice(name.lastIndexOf('.') + 1)
          .split('$')
          .at(-1),
      )
      .filter((name) => /^[A-Za-z_]/.test(name));
  const code = (file) => codeOf(readFileSync(join(repo, file), 'utf8'));
  const problems = [];
  const explained = { inferred: 0, inlined: 0 };
  const show = (edge) => edge.replace('\u0000', ' -> ');
  for (const edge of jdeps.edges) {
    if (aureus.edges.has(edge)) continue;
    const [from, to] = edge.split('\u0000');
    const own = new Set(simpleNames(from));
    const written = writtenNames(code(from), simpleNames(to)).filter(({ name }) => !own.has(name));
    if (written.length === 0) explained.inferred += 1;
    else problems.push(`only jdeps: ${show(edge)} (${from} writes ${written[0].name})`);
  }
  for (const edge of aureus.edges) {
    if (jdeps.edges.has(edge)) continue;
    const [from, to] = edge.split('\u0000');
    const constants = new Set(classesOf(to).flatMap(([, info]) => [...info.constants]));
    const text = code(from);
    const unexplained = writtenNames(text, simpleNames(to)).filter(
      ({ at, member }) =>
        !/^\s*import\s[^;]*$/m.test(text.slice(text.lastIndexOf('\n', at) + 1, at)) &&
        !(member !== undefined && constants.has(member)),
    );
    if (unexplained.length === 0) explained.inlined += 1;
    else problems.push(`only AUREUS: ${show(edge)} (${from} uses ${unexplained[0].name})`);
  }
  if (aureus.sourceFiles !== jdeps.files.length)
    problems.push(
      `AUREUS analysed ${aureus.sourceFiles} files, javac compiled ${jdeps.files.length}`,
    );
  return { aureus: aureus.edges.size, jdeps: jdeps.edges.size, explained, problems };
}

/** The whole check: the code base prepared, both graphs, the comparison. */
export function checkJavaReference() {
  const repo = prepareJavaCodebase();
  const jdeps = jdepsGraph(repo);
  const aureus = aureusGraph(repo);
  return {
    files: jdeps.files.length,
    cycles: aureus.cycles,
    ...compareJavaGraphs(repo, aureus, jdeps),
  };
}
