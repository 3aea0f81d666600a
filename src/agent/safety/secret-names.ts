/**
 * Which environment variable (or git configuration key) names hold secrets. Two answers:
 * a value to remove from every text that goes to a model (`holdsSecret`), and a variable no
 * child process gets (`keptFromChildren`), which also covers whole provider families whose
 * non-secret settings (a base URL, a region) still say where the secrets are used.
 */

/** Words that make a name secret wherever they appear; `AUTH` but not `AUTHOR`. */
const SECRET_WORDS = /TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIAL|PRIVATE|COOKIE|SESSION|AUTH(?!OR)/;
/** Words that make a name secret as a whole segment: `API_KEY`, `NPM_PASS`, `GH_PAT`. */
const SECRET_SEGMENT = /^(?:[A-Z0-9]*KEYS?|PASS|PAT|SIGNATURE|SALT)$/;
const PROVIDER_PREFIXES = [
  'GITHUB_',
  'GH_',
  'ACTIONS_',
  'ANTHROPIC_',
  'CLAUDE_',
  'OPENAI_',
  'AWS_',
  'AZURE_',
  'GOOGLE_',
  'GCP_',
  'GCLOUD_',
  'HF_',
  'HUGGING',
  'NPM_CONFIG_',
  'YARN_NPM_',
  'DOCKER_',
];

export function holdsSecret(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_WORDS.test(upper)) return true;
  return upper.split(/[^A-Z0-9]+/).some((segment) => SECRET_SEGMENT.test(segment));
}

export function keptFromChildren(name: string): boolean {
  const upper = name.toUpperCase();
  return holdsSecret(upper) || PROVIDER_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
