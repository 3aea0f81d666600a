import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { type Environment, readAppSettings } from '../../src/bot/app-settings.js';
import { AureusError } from '../../src/model/errors.js';

const CWD = '/srv/aureus';
const SECRET = 'a-long-enough-webhook-secret';
const { privateKey: PEM, publicKey: PUBLIC_PEM } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const PKCS8_PEM = createPrivateKey(PEM).export({ type: 'pkcs8', format: 'pem' }).toString();
/** A sample of the key's body: no message may contain any part of the key. */
const KEY_SAMPLE = PEM.split('\n')[5] ?? 'missing';

const VALID: Environment = { APP_ID: '123456', PRIVATE_KEY: PEM, WEBHOOK_SECRET: SECRET };

function noFile(path: string): string {
  throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
}

function read(env: Environment, readFile: (path: string) => string = noFile) {
  return readAppSettings(env, readFile, CWD);
}

/** The AureusError `env` gives, checked to leak no secret. */
function errorOf(env: Environment, readFile: (path: string) => string = noFile) {
  try {
    read(env, readFile);
  } catch (error) {
    if (!(error instanceof AureusError)) throw error;
    for (const secret of [SECRET, KEY_SAMPLE, 'development', 'hunter2', 's3cret-token']) {
      expect(error.message).not.toContain(secret);
      expect(error.hint).not.toContain(secret);
    }
    return error;
  }
  throw new Error('expected readAppSettings to throw an AureusError');
}

describe('readAppSettings', () => {
  it('fills in the defaults', () => {
    expect(read(VALID)).toEqual({
      appId: 123456,
      privateKey: PEM.trim(),
      webhookSecret: SECRET,
      port: 3000,
      host: null,
      webhookPath: '/api/github/webhooks',
      githubApiUrl: 'https://api.github.com',
      dataDir: '/srv/aureus/.aureus-app',
      concurrency: 2,
      logLevel: 'info',
      logFormat: 'pretty',
      production: false,
    });
  });

  it('logs JSON in production unless told otherwise', () => {
    expect(read({ ...VALID, NODE_ENV: 'production' }).logFormat).toBe('json');
    expect(read({ ...VALID, NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe(
      'pretty',
    );
    expect(read({ ...VALID, NODE_ENV: 'production' }).production).toBe(true);
  });

  it('reads every variable that is set', () => {
    const settings = read({
      ...VALID,
      PORT: '8080',
      HOST: '127.0.0.1',
      WEBHOOK_PATH: '/hooks/aureus',
      GITHUB_API_URL: 'https://ghes.example.com/api/v3/',
      AUREUS_DATA_DIR: 'state',
      AUREUS_CONCURRENCY: '4',
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
    });
    expect(settings).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      webhookPath: '/hooks/aureus',
      githubApiUrl: 'https://ghes.example.com/api/v3',
      dataDir: '/srv/aureus/state',
      concurrency: 4,
      logLevel: 'debug',
      logFormat: 'json',
    });
    expect(read({ ...VALID, AUREUS_DATA_DIR: '/var/lib/aureus' }).dataDir).toBe('/var/lib/aureus');
  });

  it('treats empty variables as unset', () => {
    expect(read({ ...VALID, PORT: '', HOST: ' ', LOG_LEVEL: '' })).toMatchObject({
      port: 3000,
      host: null,
      logLevel: 'info',
    });
  });

  describe('APP_ID', () => {
    it('is required', () => {
      expect(errorOf({ ...VALID, APP_ID: undefined }).message).toBe('APP_ID is not set.');
    });

    it('must be a positive integer', () => {
      for (const appId of ['0', '-3', '12abc', '1.5', '99999999999999999999']) {
        const error = errorOf({ ...VALID, APP_ID: appId });
        expect(error.message).toContain('APP_ID');
        expect(error.hint).toContain('App ID');
      }
    });
  });

  describe('the private key', () => {
    it('accepts PEM text, PKCS#1 or PKCS#8', () => {
      expect(read(VALID).privateKey).toBe(PEM.trim());
      expect(read({ ...VALID, PRIVATE_KEY: PKCS8_PEM }).privateKey).toBe(PKCS8_PEM.trim());
    });

    it('accepts the base64 of the PEM, on one line or wrapped', () => {
      const base64 = Buffer.from(PEM).toString('base64');
      expect(read({ ...VALID, PRIVATE_KEY: base64 }).privateKey).toBe(PEM.trim());
      const wrapped = base64.match(/.{1,76}/g)?.join('\n') ?? '';
      expect(read({ ...VALID, PRIVATE_KEY: wrapped }).privateKey).toBe(PEM.trim());
    });

    it('accepts PEM with literal \\n or on one line, giving a key that loads', () => {
      const escaped = PEM.trim().replace(/\n/g, '\\n');
      expect(read({ ...VALID, PRIVATE_KEY: escaped }).privateKey).toBe(PEM.trim());
      const oneLine = PEM.trim().replace(/\n/g, ' ');
      const key = read({ ...VALID, PRIVATE_KEY: oneLine }).privateKey;
      expect(createPrivateKey(key).asymmetricKeyType).toBe('rsa');
    });

    it('reads PRIVATE_KEY_PATH from the working directory', () => {
      const asked: string[] = [];
      const readFile = (path: string) => {
        asked.push(path);
        return PEM;
      };
      const env = { ...VALID, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: 'keys/app.pem' };
      expect(read(env, readFile).privateKey).toBe(PEM.trim());
      expect(asked).toEqual(['/srv/aureus/keys/app.pem']);
    });

    it('refuses both variables at once', () => {
      const error = errorOf({ ...VALID, PRIVATE_KEY_PATH: 'app.pem' }, () => PEM);
      expect(error.message).toBe('both PRIVATE_KEY and PRIVATE_KEY_PATH are set.');
    });

    it('requires one of them', () => {
      const error = errorOf({ ...VALID, PRIVATE_KEY: undefined });
      expect(error.message).toContain('neither PRIVATE_KEY nor PRIVATE_KEY_PATH');
    });

    it('says when the key file cannot be read', () => {
      const error = errorOf({ ...VALID, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: 'gone.pem' });
      expect(error.message).toBe(
        'PRIVATE_KEY_PATH points to /srv/aureus/gone.pem, which cannot be read (ENOENT).',
      );
    });

    it('refuses what is not a PEM private key, without showing it', () => {
      const notKeys = [
        PUBLIC_PEM,
        'hunter2',
        Buffer.from('hunter2 is not a key').toString('base64'),
        PEM.replace('-----END RSA PRIVATE KEY-----', ''),
        PEM.replace('-----BEGIN RSA PRIVATE KEY-----', '-----BEGIN ENCRYPTED PRIVATE KEY-----'),
      ];
      for (const notKey of notKeys) {
        expect(errorOf({ ...VALID, PRIVATE_KEY: notKey }).message).toBe(
          'PRIVATE_KEY is not a PEM private key, nor the base64 of one.',
        );
      }
      const fromFile = errorOf(
        { ...VALID, PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: '/keys/app.pub' },
        () => PUBLIC_PEM,
      );
      expect(fromFile.message).toContain('/keys/app.pub, which does not hold a PEM private key');
    });
  });

  describe('WEBHOOK_SECRET', () => {
    it('is required, even in development (THREATS rule 1)', () => {
      for (const secret of [undefined, '', '   ']) {
        expect(errorOf({ ...VALID, WEBHOOK_SECRET: secret }).message).toBe(
          'WEBHOOK_SECRET is not set.',
        );
      }
    });

    it("refuses probot's default in production", () => {
      const env = { ...VALID, NODE_ENV: 'production', WEBHOOK_SECRET: 'development' };
      const error = errorOf(env);
      expect(error.message).toContain("probot's public default");
      expect(error.hint).toContain('openssl rand');
    });

    it('refuses a short secret in production', () => {
      const env = { ...VALID, NODE_ENV: 'production', WEBHOOK_SECRET: 's3cret-token' };
      expect(errorOf(env).message).toContain('fewer than 16 characters');
      expect(read({ ...env, WEBHOOK_SECRET: '0123456789abcdef' }).webhookSecret).toBe(
        '0123456789abcdef',
      );
    });

    it('allows a weak secret outside production, for local development', () => {
      expect(read({ ...VALID, WEBHOOK_SECRET: 'development' }).webhookSecret).toBe('development');
    });
  });

  it('checks PORT and AUREUS_CONCURRENCY ranges', () => {
    for (const port of ['0', '65536', 'http', '80.5', '-1']) {
      expect(errorOf({ ...VALID, PORT: port }).message).toContain('not an integer from 1 to 65535');
    }
    expect(read({ ...VALID, PORT: '65535' }).port).toBe(65535);
    for (const concurrency of ['0', '33', 'two']) {
      expect(errorOf({ ...VALID, AUREUS_CONCURRENCY: concurrency }).message).toContain(
        'AUREUS_CONCURRENCY',
      );
    }
    expect(read({ ...VALID, AUREUS_CONCURRENCY: '32' }).concurrency).toBe(32);
  });

  it('checks WEBHOOK_PATH', () => {
    for (const path of ['api/github/webhooks', '/hooks?x=1', '/hooks#x', '/a b']) {
      expect(errorOf({ ...VALID, WEBHOOK_PATH: path }).message).toContain('WEBHOOK_PATH');
    }
  });

  it('checks LOG_LEVEL and LOG_FORMAT against probot', () => {
    expect(errorOf({ ...VALID, LOG_LEVEL: 'verbose' }).hint).toBe(
      'set LOG_LEVEL to one of trace, debug, info, warn, error, fatal, silent, or unset it for info.',
    );
    expect(errorOf({ ...VALID, LOG_FORMAT: 'xml' }).message).toContain('LOG_FORMAT');
  });

  describe('GITHUB_API_URL', () => {
    it('must be an http(s) URL without credentials, and is never echoed', () => {
      const cases = [
        ['not a url', 'GITHUB_API_URL is not a URL.'],
        ['ftp://ghes.example.com/api/v3', 'GITHUB_API_URL uses ftp:, not http: or https:.'],
        ['https://x:hunter2@ghes.example.com/api/v3', 'credentials'],
        ['https://ghes.example.com/api/v3?token=s3cret-token', 'a query'],
      ];
      for (const [url, message] of cases) {
        expect(errorOf({ ...VALID, GITHUB_API_URL: url }).message).toContain(message);
      }
    });

    it("follows probot's GHE_HOST and GHE_PROTOCOL, and refuses them naming another server", () => {
      expect(read({ ...VALID, GHE_HOST: 'github.example.com' }).githubApiUrl).toBe(
        'https://github.example.com/api/v3',
      );
      expect(
        read({ ...VALID, GHE_HOST: 'ghes.test:8443', GHE_PROTOCOL: 'http' }).githubApiUrl,
      ).toBe('http://ghes.test:8443/api/v3');
      const same = {
        GHE_HOST: 'github.example.com',
        GITHUB_API_URL: 'https://github.example.com/api/v3/',
      };
      expect(read({ ...VALID, ...same }).githubApiUrl).toBe('https://github.example.com/api/v3');
      expect(
        errorOf({
          ...VALID,
          GHE_HOST: 'github.example.com',
          GITHUB_API_URL: 'https://api.github.com',
        }).message,
      ).toContain('GITHUB_API_URL and GHE_HOST name different servers');
      expect(errorOf({ ...VALID, GHE_HOST: 'https://github.example.com' }).message).toContain(
        'GHE_HOST or GHE_PROTOCOL is not what probot expects.',
      );
      expect(
        errorOf({ ...VALID, NODE_ENV: 'production', GHE_HOST: 'ghes.test', GHE_PROTOCOL: 'http' })
          .message,
      ).toContain(
        'GHE_HOST (with GHE_PROTOCOL) uses plain http to ghes.test, refused in production.',
      );
    });

    it('allows plain http in production only to a loopback test double', () => {
      const production = { ...VALID, NODE_ENV: 'production' };
      expect(read({ ...production, GITHUB_API_URL: 'http://127.0.0.1:8123' }).githubApiUrl).toBe(
        'http://127.0.0.1:8123',
      );
      expect(read({ ...production, GITHUB_API_URL: 'http://[::1]:8123/' }).githubApiUrl).toBe(
        'http://[::1]:8123',
      );
      expect(errorOf({ ...production, GITHUB_API_URL: 'http://ghes.internal' }).message).toContain(
        'plain http',
      );
      expect(read({ ...VALID, GITHUB_API_URL: 'http://ghes.internal' }).githubApiUrl).toBe(
        'http://ghes.internal',
      );
    });
  });

  it('lists every problem at once', () => {
    const error = errorOf({ NODE_ENV: 'production', PORT: 'x' });
    expect(error.message.split('\n')).toEqual([
      'aureus serve found 4 problems in its environment:',
      '  - APP_ID is not set.',
      '  - no private key: neither PRIVATE_KEY nor PRIVATE_KEY_PATH is set.',
      '  - WEBHOOK_SECRET is not set.',
      '  - PORT is "x", not an integer from 1 to 65535.',
    ]);
    expect(error.hint.split('\n')).toHaveLength(5);
    expect(error.hint).toMatch(/^fix each of them:\n {2}- set APP_ID/);
  });

  it('needs an absolute working directory, so it never depends on the process one', () => {
    expect(() => readAppSettings(VALID, noFile, 'relative')).toThrow(RangeError);
  });
});
