import { defaultPolicy } from '../policy/default-policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import { detectCore, productFiles } from './detect-core.js';
import { detectFrameworks } from './detect-frameworks.js';
import { detectLanguages } from './detect-languages.js';
import { detectLayering } from './detect-layering.js';
import { detectMaturity, detectTeam } from './detect-maturity.js';
import { detectProjectType } from './detect-project-type.js';
import { detectTests } from './detect-tests.js';
import { readProjectManifests } from './manifests/read-project-manifests.js';
import type { ProjectIntelligence } from './project-intelligence.js';
import type { ProjectSurvey } from './project-survey.js';

/** Longest project name the policy schema accepts. */
const MAX_NAME = 200;

/**
 * What the survey says about the project: its kind, stack, tests, core, layering, team and
 * maturity, each with the evidence that decided it. Pure: the same survey gives the same answer.
 */
export function inferProject(survey: ProjectSurvey): ProjectIntelligence {
  const design = defaultPolicy();
  const manifests = readProjectManifests(survey.manifests);
  const frameworks = detectFrameworks(manifests);
  const tests = detectTests(manifests, survey.files);
  const core = detectCore(survey.files, manifests.workspaces, design.paths);
  const inCore = globMatcher(core.value.globs);
  const coreFiles = productFiles(survey.files, design.paths)
    .map((file) => file.path)
    .filter(inCore);
  const type = detectProjectType(manifests, frameworks.value, survey.files);
  const unreadable =
    manifests.unreadable.length === 0 ? '' : ` (${manifests.unreadable.join(', ')} did not read)`;
  return {
    name:
      manifests.name === null
        ? { value: survey.folderName.slice(0, MAX_NAME), reason: 'the repository folder' }
        : {
            value: manifests.name.value.slice(0, MAX_NAME),
            reason: `${manifests.name.source} name`,
          },
    type: { value: type.value, reason: `${type.reason}${unreadable}` },
    languages: detectLanguages(survey.files),
    frameworks: {
      value: frameworks.value.map((framework) => framework.name),
      reason: frameworks.reason,
    },
    testRunner: tests.runner,
    testCommand: tests.command,
    core,
    layering: detectLayering(core.value, coreFiles, survey.imports),
    team: detectTeam(survey.history),
    maturity: detectMaturity(survey.history, survey.now, core.value, design.budgets),
  };
}
