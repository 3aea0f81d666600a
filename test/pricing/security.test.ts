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
        detail: 'new filesystem_write surface: calls fs.writeFileSync',
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
      'app/a.py new env_secrets surface: calls os.getenv',
      'cmd/a.go new process_spawn surface: imports os/exec',
      'src/A.java new process_spawn surface: calls java.lang.ProcessBuilder',
    ]);
  });

  /** The surfaces of one added file, as `surface: evidence`. */
  const surfacesOf = async (path: string, head: string) =>
    itemsOf(await priceOf([{ path, head }]), 'security').map((item) =>
      item.detail.replace(/^new (\w+) surface: /, '$1: '),
    );

  it('reads an fs write however fs is imported: named, default, namespace, require, aliased', async () => {
    const forms = [
      "import { writeFile } from 'node:fs/promises';\nexport const f = () => writeFile('a', 'b');\n",
      "import fs from 'fs';\nexport const f = () => fs.writeFileSync('a', 'b');\n",
      "import * as fs from 'node:fs';\nexport const f = () => fs.promises.writeFile('a', 'b');\n",
      "const fs = require('fs');\nexports.f = () => fs.appendFileSync('a', 'b');\n",
      "const { writeFileSync: save } = require('node:fs');\nexports.f = () => save('a', 'b');\n",
      "import { promises as fsp } from 'fs';\nexport const f = () => fsp.rm('a');\n",
    ];
    const found = await Promise.all(forms.map((head) => surfacesOf('src/a.ts', head)));
    expect(found).toEqual([
      ['filesystem_write: imports writeFile from fs/promises'],
      ['filesystem_write: calls fs.writeFileSync'],
      ['filesystem_write: calls fs.promises.writeFile'],
      ['filesystem_write: calls fs.appendFileSync'],
      ['filesystem_write: imports writeFileSync from fs'],
      ['filesystem_write: calls fs.promises.rm'],
    ]);
  });

  it('reads no write from a method of an unknown object in a file that imports fs', async () => {
    const head = [
      "import { readFileSync } from 'node:fs';",
      'export function f(zip: { writeFile(p: string): void }) {',
      "  zip.writeFile(readFileSync('a', 'utf8'));",
      '}',
      '',
    ].join('\n');
    expect(await surfacesOf('src/a.ts', head)).toEqual([]);
  });

  it('reads the global fetch, not a method named fetch nor an imported fetch', async () => {
    const global = 'export const get = (u: string) => globalThis.fetch(u);\n';
    const method = 'export const load = (query: { fetch(): unknown }) => query.fetch();\n';
    const imported = "import { fetch } from './http.js';\nexport const load = () => fetch('/a');\n";
    expect(await surfacesOf('src/a.ts', global)).toEqual(['network: calls fetch']);
    expect(await surfacesOf('src/b.ts', method)).toEqual([]);
    expect(await surfacesOf('src/c.ts', imported)).toEqual([]);
  });

  it('reads the Web Crypto global and a call at module level', async () => {
    const head = "export const id = crypto.randomUUID();\nnew WebSocket('wss://x');\n";
    expect(await surfacesOf('src/a.ts', head)).toEqual([
      'network: calls WebSocket',
      'crypto: calls crypto.randomUUID',
    ]);
  });

  it('reads Python surfaces by what the name resolves to', async () => {
    const replace = 'import os\ndef f(s):\n    return s.replace("a", "b"), os.path.join(s)\n';
    const parse =
      'import urllib\nfrom http import HTTPStatus\ndef f(s):\n    return urllib.parse.quote(s), HTTPStatus.OK\n';
    const request = 'import urllib.request\ndef f(u):\n    return urllib.request.urlopen(u)\n';
    const spawn =
      'import os\nfrom os import replace as mv\ndef f(c):\n    os.system(c)\n    mv(c, c)\n';
    expect(await surfacesOf('app/a.py', replace)).toEqual([]);
    expect(await surfacesOf('app/b.py', parse)).toEqual([]);
    expect(await surfacesOf('app/c.py', request)).toEqual(['network: imports urllib.request']);
    expect(await surfacesOf('app/d.py', spawn)).toEqual([
      'process_spawn: calls os.system',
      'filesystem_write: imports replace from os',
    ]);
  });

  it('reads pathlib writes on a Path, not on any object with a write_text method', async () => {
    const path =
      'from pathlib import Path\ndef f(p):\n    out = Path(p)\n    out.write_text("x")\n';
    const other = 'import pathlib\ndef f(doc):\n    doc.write_text(str(pathlib.PurePath("a")))\n';
    expect(await surfacesOf('app/a.py', path)).toEqual([
      'filesystem_write: calls write_text on pathlib.Path',
    ]);
    expect(await surfacesOf('app/b.py', other)).toEqual([]);
  });

  it('reads Go calls through the package they name, not methods of other values', async () => {
    const write = 'package main\nimport "os"\nfunc f() { os.WriteFile("a", nil, 0o600) }\n';
    const method = 'package main\nimport "os"\nfunc f(c Cache) { c.Remove(os.Args[0]) }\n';
    expect(await surfacesOf('cmd/a.go', write)).toEqual(['filesystem_write: calls os.WriteFile']);
    expect(await surfacesOf('cmd/b.go', method)).toEqual([]);
  });

  it('reads Java Runtime.exec and ProcessBuilder, not an exec or delete of another object', async () => {
    const runtime =
      'class A { void f(String c) throws Exception { Runtime.getRuntime().exec(c); } }\n';
    const other = [
      'import java.io.IOException;',
      'class B { void f(Shell s, Repo r) throws IOException { s.exec("ls"); r.delete(1); } }',
      '',
    ].join('\n');
    expect(await surfacesOf('src/A.java', runtime)).toEqual([
      'process_spawn: calls exec on java.lang.Runtime.getRuntime',
    ]);
    expect(await surfacesOf('src/B.java', other)).toEqual([]);
  });
});
