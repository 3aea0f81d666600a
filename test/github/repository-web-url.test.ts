import { describe, expect, it } from '@jest/globals';
import { repositoryWebUrl } from '../../src/github/repository-coordinates.js';

const REPOSITORY = { owner: 'octo', repo: 'app' };

describe('repositoryWebUrl', () => {
  it.each([
    ['https://api.github.com', 'https://github.com/octo/app'],
    ['https://api.github.com/', 'https://github.com/octo/app'],
    ['https://api.acme.ghe.com', 'https://acme.ghe.com/octo/app'],
    ['https://github.example.com/api/v3', 'https://github.example.com/octo/app'],
    ['http://ghe.internal:8080/api/v3/', 'http://ghe.internal:8080/octo/app'],
  ])('%s serves its repositories at %s', (api, web) => {
    expect(repositoryWebUrl(api, REPOSITORY)).toBe(web);
  });

  it.each(['http://127.0.0.1:4010', 'https://proxy.example.com/github', 'not a url'])(
    'knows no web address behind %s',
    (api) => {
      expect(repositoryWebUrl(api, REPOSITORY)).toBeUndefined();
    },
  );
});
