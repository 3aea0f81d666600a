import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { APP_EVENTS, APP_PERMISSIONS } from '../../src/bot/app-events.js';

const text = readFileSync(new URL('../../app.yml', import.meta.url), 'utf8');
const manifest: unknown = parse(text);

function field(name: string): unknown {
  if (typeof manifest !== 'object' || manifest === null) throw new Error('app.yml is no mapping');
  return Object.entries(manifest).find(([key]) => key === name)?.[1];
}

/** The fields GitHub reads from a manifest (docs: registering a GitHub App from a manifest). */
const MANIFEST_FIELDS = [
  'name',
  'url',
  'hook_attributes',
  'redirect_url',
  'callback_urls',
  'setup_url',
  'description',
  'public',
  'default_events',
  'default_permissions',
  'request_oauth_on_install',
  'setup_on_update',
];

describe('app.yml', () => {
  it('subscribes to exactly the events the App handles', () => {
    expect(field('default_events')).toEqual([...APP_EVENTS]);
  });

  it('asks for exactly the permissions the App declares, no more', () => {
    expect(field('default_permissions')).toEqual({ ...APP_PERMISSIONS });
  });

  it('says why it needs each permission', () => {
    const lines = text.split('\n');
    for (const permission of Object.keys(APP_PERMISSIONS)) {
      const at = lines.findIndex((line) => line.startsWith(`  ${permission}:`));
      expect(lines[at - 1]).toMatch(/^ {2}# (read|write): \S/);
    }
  });

  it('registers a private App named AUREUS with a webhook', () => {
    expect(field('name')).toBe('AUREUS');
    expect(field('public')).toBe(false);
    expect(field('url')).toMatch(/^https:\/\//);
    expect(field('description')).toEqual(expect.any(String));
    expect(field('hook_attributes')).toEqual({ url: expect.stringMatching(/^https:\/\//) });
  });

  it('holds only fields GitHub reads from a manifest', () => {
    const keys = typeof manifest === 'object' && manifest !== null ? Object.keys(manifest) : [];
    expect(keys.filter((key) => !MANIFEST_FIELDS.includes(key))).toEqual([]);
  });
});
