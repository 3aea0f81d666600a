import { describe, expect, it } from '@jest/globals';
import type { AnalysisSummary } from '../../src/init/analysis-summary.js';
import { describeIntelligence } from '../../src/init/describe-intelligence.js';
import { generatePolicy } from '../../src/init/generate-policy.js';
import { inferProject } from '../../src/init/infer-project.js';
import { renderGeneratedPolicy } from '../../src/init/render-generated-policy.js';
import { roundUp } from '../../src/init/size-budgets.js';
import type { ForbiddenPatternId } from '../../src/model/policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import type { Surface } from '../../src/pricing/security-surfaces.js';
import { file, packageJson, survey } from './survey-support.js';

const NOTHING: AnalysisSummary = { findings: [], surfaces: [] };

const greenfield = inferProject(
  survey({
    manifests: [
      packageJson('package.json', {
        name: 'tiny',
        bin: { tiny: 'bin/tiny.js' },
        scripts: { test: 'jest' },
        devDependencies: { jest: '29' },
      }),
    ],
    files: [file('src/a.ts', 300), file('src/b/c.ts', 200)],
  }),
);

/** A three-year-old TypeScript library whose core is 43,120 lines in 400 files and 10 modules. */
const legacy = inferProject(
  survey({
    manifests: [packageJson('package.json', { name: 'big', exports: './dist/index.js' })],
    files: Array.from({ length: 400 }, (_, i) =>
      file(`src/m${i % 10}/f${i}.ts`, i < 20 ? 2156 : 0),
    ),
    history: {
      commits: 3210,
      firstCommitAt: '2022-03-01T00:00:00Z',
      recentAuthors: 7,
      shallow: false,
    },
  }),
);

function findings(
  ruleId: ForbiddenPatternId,
  count: number,
  severity: 'error' | 'warn' = 'error',
): AnalysisSummary['findings'] {
  return Array.from({ length: count }, (_, i) => ({
    ruleId,
    path: `src/m0/f${i}.ts`,
    severity,
    measured: 600 + i,
  }));
}

function surfaces(surface: Surface, ...paths: string[]): AnalysisSummary['surfaces'] {
  return paths.map((path) => ({ surface, path }));
}

const render = (generated: ReturnType<typeof generatePolicy>) =>
  renderGeneratedPolicy(generated, ['header line']);

describe('generatePolicy', () => {
  it('gives a greenfield project the design’s budgets and severities, and no baseline', () => {
    const generated = generatePolicy(greenfield, NOTHING);
    const parsed = parsePolicy(render(generated), '.aureus/policy.yaml');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const design = defaultPolicy();
    expect(parsed.policy.budgets).toEqual(design.budgets);
    expect(parsed.policy.forbidden_patterns).toEqual(design.forbidden_patterns);
    expect(parsed.policy.pricing).toEqual(design.pricing);
    expect(parsed.policy.project).toEqual({
      name: 'tiny',
      type: 'cli',
      stack: { languages: ['typescript'], frameworks: [], test_command: ['npm', 'test'] },
      maturity: 'greenfield',
    });
    expect(parsed.policy.permissions.allowed_commands).toEqual([['npm', 'test']]);
    expect(generated.baseline.value).toBe(false);
    expect(generated.reasons.get('budgets.core_loc')).toBe(
      'design default; the core is 500 lines today',
    );
  });

  it('sizes a legacy core’s budgets above today’s size, and asks for a baseline', () => {
    expect(legacy.core.value.loc).toBe(43120);
    const generated = generatePolicy(legacy, { findings: findings('god_class', 3), surfaces: [] });
    const budgets = generated.document.budgets;
    expect(budgets).toMatchObject({
      core_loc: { target: 52000, hard: 78000 },
      core_files: 480,
      core_modules: 12,
      change: { warn: 400, block: 500 },
    });
    expect(generated.reasons.get('budgets.core_loc')).toBe(
      'current core is 43,120 lines: target 20 % above it, hard limit 1.5× the target',
    );
    expect(generated.baseline).toEqual({
      value: true,
      reason: "a legacy code base: today's 3 findings go into the baseline, so only new ones block",
    });
  });

  it('demotes a pattern a legacy code base breaks everywhere to warn, with the reason, and never turns one off', () => {
    const summary = {
      findings: [...findings('god_class', 12), ...findings('circular_dependency', 2)],
      surfaces: [],
    };
    const generated = generatePolicy(legacy, summary);
    const patterns = generated.document.forbidden_patterns;
    expect(patterns).toMatchObject({
      god_class: { severity: 'warn' },
      circular_dependency: { severity: 'error' },
      deep_inheritance: { severity: 'error' },
    });
    expect(generated.reasons.get('forbidden_patterns.god_class')).toContain(
      '12 violations today, e.g. src/m0/f0.ts: pervasive here',
    );
    expect(generated.reasons.get('forbidden_patterns.circular_dependency')).toContain(
      'the baseline holds them',
    );
    expect(JSON.stringify(patterns)).not.toContain('"off"');
    // A greenfield project fixes its few findings instead: no demotion.
    const young = generatePolicy(greenfield, summary).document.forbidden_patterns;
    expect(young).toMatchObject({ god_class: { severity: 'error' } });
  });

  it('keeps a rule at error when its many findings today only warn (invalid test inputs)', () => {
    const summary = { findings: findings('unparsable_file', 12, 'warn'), surfaces: [] };
    const generated = generatePolicy(legacy, summary);
    expect(generated.document.forbidden_patterns).toMatchObject({
      unparsable_file: { severity: 'error' },
    });
  });

  it('prices a surface no core file touches at twice the design weight, and protects auth code', () => {
    const summary = {
      findings: [],
      surfaces: [
        ...surfaces('network', 'src/m1/http.ts'),
        ...surfaces('auth', 'src/auth/login.ts'),
      ],
    };
    const generated = generatePolicy(legacy, summary);
    expect(generated.document.pricing).toEqual({
      security: {
        process_spawn: 60,
        eval: 60,
        filesystem_write: 20,
        network: 20,
        crypto: 30,
        auth: 25,
        deserialization: 40,
        env_secrets: 30,
      },
    });
    expect(generated.reasons.get('pricing.security.network')).toBe(
      'design weight; 1 core file touches it today, e.g. src/m1/http.ts',
    );
    const permissions = generated.document.permissions;
    expect(permissions).toEqual({
      protected_paths: expect.arrayContaining(['.github/**', 'src/auth/**']),
    });
    // Greenfield keeps the design's weights: it has not drawn its boundaries yet.
    expect(generatePolicy(greenfield, summary).document.pricing).toBeUndefined();
  });

  it('writes the detected layering as module rules, each explained, that read back', () => {
    const layered = inferProject(
      survey({
        files: [
          'src/index.ts',
          'src/model/a.ts',
          'src/logic/b.ts',
          'src/ui/c.ts',
          'src/api/d.ts',
        ].map((path) => file(path)),
        imports: [
          { from: 'src/logic/b.ts', to: 'src/model/a.ts' },
          { from: 'src/index.ts', to: 'src/logic/b.ts' },
          // ui and api import each other: tangled, above every layer.
          { from: 'src/ui/c.ts', to: 'src/api/d.ts' },
          { from: 'src/api/d.ts', to: 'src/ui/c.ts' },
          { from: 'src/api/d.ts', to: 'src/model/a.ts' },
        ],
      }),
    );
    const generated = generatePolicy(layered, NOTHING);
    expect(generated.document.modules).toEqual({
      model: {
        paths: ['src/model/**'],
        may_not_import: ['logic', 'src', 'api', 'ui'],
        type_only_allowed: true,
      },
      logic: {
        paths: ['src/logic/**'],
        may_not_import: ['src', 'api', 'ui'],
        type_only_allowed: true,
      },
      src: { paths: ['src/*'], may_not_import: ['api', 'ui'], type_only_allowed: true },
      api: { paths: ['src/api/**'] },
      ui: { paths: ['src/ui/**'] },
    });
    expect(generated.reasons.get('modules.logic')).toBe(
      'layer 2 of 3: imports nothing above it today, so it may not import src, api, ui (types alone excepted: they do not run)',
    );
    expect(generated.reasons.get('modules.ui')).toBe(
      'on or above an import cycle between modules: no layer holds it, so no rule of its own',
    );
    const text = render(generated);
    expect(text).toContain(
      '  src: { paths: [ src/* ], may_not_import: [ api, ui ], type_only_allowed: true } # layer 3 of 3:',
    );
    const parsed = parsePolicy(text, 'policy.yaml');
    expect(parsed.ok ? Object.keys(parsed.policy.modules) : parsed.problems).toEqual([
      'model',
      'logic',
      'src',
      'api',
      'ui',
    ]);
    // Modules that never import each other, or one module, have no layering to enforce.
    expect(generatePolicy(greenfield, NOTHING).document.modules).toBeUndefined();
  });

  it('records a baseline for a young project whose code already breaks the module rules it writes', () => {
    const generated = generatePolicy(greenfield, {
      findings: findings('forbidden_dependency', 1),
      surfaces: [],
    });
    expect(generated.baseline).toEqual({
      value: true,
      reason:
        "1 import already against the module rules written above: today's 1 finding go into the baseline, so only new ones block",
    });
  });

  it('gives a reason for every value it sets', () => {
    const generated = generatePolicy(legacy, NOTHING);
    const leaves: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (generated.reasons.has(path)) return leaves.push(path);
      if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
        for (const [key, child] of Object.entries(node)) walk(child, path ? `${path}.${key}` : key);
      } else if (path !== 'version') throw new Error(`${path} has no reason`);
      return undefined;
    };
    walk(generated.document, '');
    expect(leaves.length).toBe(generated.reasons.size);
  });
});

describe('renderGeneratedPolicy', () => {
  it('writes each reason as a comment beside its value, and the text parses back without problems', () => {
    const generated = generatePolicy(legacy, { findings: findings('god_class', 12), surfaces: [] });
    const text = render(generated);
    expect(text).toContain(
      'core_loc: { target: 52000, hard: 78000 } # current core is 43,120 lines: target 20 % above it',
    );
    expect(text).toMatch(/^ {2}god_class: \{ severity: warn \} # 12 violations today/m);
    expect(text.startsWith('# header line\n')).toBe(true);
    const parsed = parsePolicy(text, 'policy.yaml');
    expect(parsed.ok).toBe(true);
  });

  it('quotes a name YAML 1.1 would read as a boolean, a number or a date, and it parses back', () => {
    for (const name of ['no', 'on', '1_000', '2024-01-31']) {
      const project = inferProject(
        survey({
          manifests: [packageJson('package.json', { name })],
          files: [file('src/a.ts', 10)],
        }),
      );
      const text = render(generatePolicy(project, NOTHING));
      expect(text).toContain(`name: "${name}"`);
      const parsed = parsePolicy(text, 'policy.yaml');
      expect(parsed.ok && parsed.policy.project.name).toBe(name);
    }
  });

  it('keeps a reason with a line break or a # on one comment line', () => {
    const generated = generatePolicy(greenfield, NOTHING);
    const reasons = new Map(generated.reasons);
    reasons.set('budgets.core_files', 'first line\nsecond # line');
    const text = renderGeneratedPolicy({ ...generated, reasons }, ['a\nb']);
    expect(text).toContain('core_files: 25 # first line second # line\n');
    expect(text.startsWith('# a b\n')).toBe(true);
    expect(parsePolicy(text, 'policy.yaml').ok).toBe(true);
  });
});

describe('describeIntelligence', () => {
  it('prints the findings and one line per distinct setting and reason', () => {
    const text = describeIntelligence(legacy, generatePolicy(legacy, NOTHING));
    expect(text.split('\n')[0]).toBe('big: library, legacy');
    expect(text).toContain('  maturity    legacy (first commit 2022-03-01');
    expect(text).toContain(
      '  forbidden_patterns.god_class, deep_inheritance, circular_dependency, forbidden_dependency, premature_abstraction, di_container, plugin_registry, event_bus, oversized_adapter, unparsable_file: { severity: error } (no violation today: kept at error)',
    );
    expect(text).not.toContain('project.name');
  });
});

it('rounds budgets up to two significant figures', () => {
  expect([roundUp(7.2), roundUp(100), roundUp(495.6), roundUp(51744), roundUp(77616)]).toEqual([
    8, 100, 500, 52000, 78000,
  ]);
});
