import { describe, expect, it } from '@jest/globals';
import { itemsOf, priceOf } from './pricing-support.js';

describe('security', () => {
  it('prices a new child_process import at process_spawn 30', async () => {
    const head =
      "import { execFile } from 'node:child_process';\nexport const run = () => execFile('ls');\n";
    const priced = await priceOf([
      { path: 'src/run.ts', base: 'export const run = () => 0;\n', head },
    ]);
    expect(itemsOf(priced, 'security')).toEqual([
      {
        points: 30,
        path: 'src/run.ts',
        detail: 'new process_spawn surface: imports child_process',
      },
    ]);
  });

  it('prices nothing for a surface the base already touched', async () => {
    const base = "import { exec } from 'child_process';\nexport const a = () => exec('ls');\n";
    const head = `${base}import { spawn } from 'child_process';\nexport const b = () => spawn('ls');\n`;
    const priced = await priceOf([{ path: 'src/run.ts', base, head }]);
    expect(priced.cost.security).toBe(0);
  });

  it('prices nothing for a moved file, and nothing for a removed surface', async () => {
    const text = "import axios from 'axios';\nexport const get = () => axios.get('u');\n";
    const moved = await priceOf([
      { path: 'src/net/get.ts', oldPath: 'src/get.ts', base: text, head: text },
    ]);
    expect(moved.cost.security).toBe(0);
    const removed = await priceOf([
      { path: 'src/get.ts', base: text, head: 'export const get = () => 0;\n' },
    ]);
    expect(removed.cost.security).toBe(0);
  });

  it('tells a filesystem read from a write', async () => {
    const read =
      "import * as fs from 'node:fs';\nexport function f() { return fs.readFileSync('a'); }\n";
    const write =
      "import * as fs from 'node:fs';\nexport function f() { fs.writeFileSync('a', 'b'); }\n";
    expect((await priceOf([{ path: 'src/a.ts', head: read }])).cost.security).toBe(0);
    expect(
      itemsOf(await priceOf([{ path: 'src/a.ts', base: read, head: write }]), 'security'),
    ).toEqual([
      {
        points: 10,
        path: 'src/a.ts',
        detail: 'new filesystem_write surface: imports fs and calls writeFileSync',
      },
    ]);
  });

  it('ignores type-only imports', async () => {
    const head = "import type { Agent } from 'node:http';\nexport type A = Agent;\n";
    expect((await priceOf([{ path: 'src/a.ts', head }])).cost.security).toBe(0);
  });

  it('prices every new surface of a file once, each at its weight', async () => {
    const head = [
      "import jwt from 'jsonwebtoken';",
      "import { createHash } from 'crypto';",
      "import 'dotenv/config';",
      'export async function f(code: string) {',
      "  await fetch('https://example.com');",
      '  eval(code);',
      '  return [jwt, createHash];',
      '}',
      '',
    ].join('\n');
    const priced = await priceOf([{ path: 'src/a.ts', head }]);
    expect(itemsOf(priced, 'security').map((item) => [item.detail, item.points])).toEqual([
      ['new eval surface: evaluates code (eval)', 30],
      ['new network surface: calls fetch', 20],
      ['new crypto surface: imports crypto', 15],
      ['new auth surface: imports jsonwebtoken', 25],
      ['new env_secrets surface: imports dotenv/config', 15],
    ]);
  });

  it('reads Python, Go and Java surfaces', async () => {
    const python = 'import os\nimport pickle\ndef f():\n    return os.getenv("TOKEN"), pickle\n';
    const go = 'package main\nimport "os/exec"\nfunc f() { exec.Command("ls").Run() }\n';
    const java = 'class A { void f() throws Exception { new ProcessBuilder("ls").start(); } }\n';
    const priced = await priceOf([
      { path: 'app/a.py', head: python },
      { path: 'cmd/a.go', head: go },
      { path: 'src/A.java', head: java },
    ]);
    expect(itemsOf(priced, 'security').map((item) => `${item.path} ${item.detail}`)).toEqual([
      'app/a.py new deserialization surface: imports pickle',
      'app/a.py new env_secrets surface: imports os and calls getenv',
      'cmd/a.go new process_spawn surface: imports os/exec',
      'src/A.java new process_spawn surface: calls ProcessBuilder',
    ]);
  });
});
