import { describe, expect, it } from '@jest/globals';
import { specifierMatches } from '../../src/pricing/price-security.js';
import { SURFACE_ORDER, SURFACE_RULES } from '../../src/pricing/security-surfaces.js';
import { policyFrom } from './pricing-support.js';

describe('security surface table', () => {
  it('matches a specifier itself, anything under it, and `*` prefixes only', () => {
    expect(specifierMatches('fs/promises', 'fs')).toBe(true);
    expect(specifierMatches('java.net.URL', 'java.net')).toBe(true);
    expect(specifierMatches('crypto/sha256', 'crypto')).toBe(true);
    expect(specifierMatches('crypto-js', 'crypto')).toBe(false);
    expect(specifierMatches('fsevents', 'fs')).toBe(false);
    expect(specifierMatches('passport-local', 'passport-*')).toBe(true);
  });

  it('names only surfaces the policy weighs, each in the listing order', () => {
    const weighed = Object.keys(policyFrom().pricing.security).sort();
    expect([...SURFACE_ORDER].sort()).toEqual(weighed);
    for (const rules of Object.values(SURFACE_RULES)) {
      for (const rule of rules) {
        expect(SURFACE_ORDER).toContain(rule.surface);
        const lists = rule.kind === 'global' ? [rule.names] : [rule.modules];
        if (rule.kind === 'exports') lists.push(rule.names);
        if (rule.kind === 'methods') lists.push(rule.via, rule.methods);
        for (const list of lists) expect(list.length).toBeGreaterThan(0);
      }
    }
  });
});
