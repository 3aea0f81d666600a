import type { Ecosystem } from './manifests/manifest-facts.js';

/**
 * What a framework makes of the project that depends on it at run time:
 * `frontend` and `fullstack` a web app, `server` an API service, `cli` a command-line tool.
 */
export type FrameworkKind = 'frontend' | 'fullstack' | 'server' | 'cli';

export interface FrameworkEntry {
  /** The name the policy's `project.stack.frameworks` lists. */
  readonly name: string;
  readonly kind: FrameworkKind;
  readonly ecosystems: readonly Ecosystem[];
  /** Dependency names that mean it. A Go module path also matches with a `/vN` suffix. */
  readonly packages: readonly string[];
  /** Dependencies that change what it means: react under ink draws a terminal, not a page. */
  readonly notWith?: readonly string[];
}

const NPM: readonly Ecosystem[] = ['npm'];
const PYTHON: readonly Ecosystem[] = ['python'];
const GO: readonly Ecosystem[] = ['go'];
const JVM: readonly Ecosystem[] = ['maven', 'gradle'];
const CARGO: readonly Ecosystem[] = ['cargo'];

function entry(
  kind: FrameworkKind,
  ecosystems: readonly Ecosystem[],
  name: string,
  packages: readonly string[] = [name],
  notWith?: readonly string[],
): FrameworkEntry {
  return notWith === undefined
    ? { name, kind, ecosystems, packages }
    : { name, kind, ecosystems, packages, notWith };
}

/**
 * Frameworks by the dependencies that name them. Data, not code: a missing framework is one
 * line here. Full-stack frameworks come before the UI libraries they build on, so a Next.js app
 * is listed as next first.
 */
export const FRAMEWORKS: readonly FrameworkEntry[] = [
  entry('fullstack', NPM, 'next'),
  entry('fullstack', NPM, 'nuxt'),
  entry('fullstack', NPM, 'remix', ['@remix-run/react', '@remix-run/node']),
  entry('fullstack', NPM, 'sveltekit', ['@sveltejs/kit']),
  entry('fullstack', NPM, 'astro'),
  entry('fullstack', NPM, 'gatsby'),
  entry('frontend', NPM, 'react', ['react', 'react-dom'], ['ink']),
  entry('frontend', NPM, 'vue'),
  entry('frontend', NPM, 'svelte'),
  entry('frontend', NPM, 'angular', ['@angular/core']),
  entry('frontend', NPM, 'solid', ['solid-js']),
  entry('frontend', NPM, 'preact'),
  entry('frontend', NPM, 'lit'),
  entry('frontend', NPM, 'ember', ['ember-source']),
  entry('server', NPM, 'nestjs', ['@nestjs/core']),
  entry('server', NPM, 'express'),
  entry('server', NPM, 'fastify'),
  entry('server', NPM, 'koa'),
  entry('server', NPM, 'hapi', ['@hapi/hapi']),
  entry('server', NPM, 'hono'),
  entry('server', NPM, 'restify'),
  entry('server', NPM, 'feathers', ['@feathersjs/feathers']),
  entry('server', NPM, 'adonisjs', ['@adonisjs/core']),
  entry('server', NPM, 'apollo-server', ['@apollo/server', 'apollo-server']),
  entry('server', NPM, 'trpc', ['@trpc/server']),
  entry('cli', NPM, 'commander'),
  entry('cli', NPM, 'yargs'),
  entry('cli', NPM, 'oclif', ['@oclif/core']),
  entry('cli', NPM, 'cac'),
  entry('cli', NPM, 'meow'),
  entry('cli', NPM, 'clipanion'),
  entry('cli', NPM, 'citty'),
  entry('cli', NPM, 'ink'),
  entry('fullstack', PYTHON, 'django'),
  entry('fullstack', PYTHON, 'streamlit'),
  entry('fullstack', PYTHON, 'dash'),
  entry('server', PYTHON, 'fastapi'),
  entry('server', PYTHON, 'flask'),
  entry('server', PYTHON, 'starlette'),
  entry('server', PYTHON, 'aiohttp'),
  entry('server', PYTHON, 'tornado'),
  entry('server', PYTHON, 'falcon'),
  entry('server', PYTHON, 'sanic'),
  entry('server', PYTHON, 'litestar'),
  entry('cli', PYTHON, 'click'),
  entry('cli', PYTHON, 'typer'),
  entry('server', GO, 'gin', ['github.com/gin-gonic/gin']),
  entry('server', GO, 'echo', ['github.com/labstack/echo']),
  entry('server', GO, 'fiber', ['github.com/gofiber/fiber']),
  entry('server', GO, 'chi', ['github.com/go-chi/chi']),
  entry('server', GO, 'gorilla-mux', ['github.com/gorilla/mux']),
  entry('server', GO, 'grpc', ['google.golang.org/grpc']),
  entry('cli', GO, 'cobra', ['github.com/spf13/cobra']),
  entry('cli', GO, 'urfave-cli', ['github.com/urfave/cli']),
  entry('cli', GO, 'kong', ['github.com/alecthomas/kong']),
  entry('fullstack', JVM, 'vaadin', ['com.vaadin:vaadin-core', 'com.vaadin:vaadin']),
  entry('server', JVM, 'spring-boot', [
    'org.springframework.boot:spring-boot-starter-web',
    'org.springframework.boot:spring-boot-starter-webflux',
  ]),
  entry('server', JVM, 'quarkus', ['io.quarkus:quarkus-rest', 'io.quarkus:quarkus-resteasy']),
  entry('server', JVM, 'micronaut', ['io.micronaut:micronaut-http-server-netty']),
  entry('server', JVM, 'javalin', ['io.javalin:javalin']),
  entry('server', JVM, 'dropwizard', ['io.dropwizard:dropwizard-core']),
  entry('cli', JVM, 'picocli', ['info.picocli:picocli']),
  entry('fullstack', CARGO, 'leptos'),
  entry('frontend', CARGO, 'yew'),
  entry('frontend', CARGO, 'dioxus'),
  entry('server', CARGO, 'actix-web'),
  entry('server', CARGO, 'axum'),
  entry('server', CARGO, 'rocket'),
  entry('server', CARGO, 'warp'),
  entry('cli', CARGO, 'clap'),
  entry('cli', CARGO, 'argh'),
];

/** Whether a declared dependency name is one of an entry's packages. */
export function namesPackage(packages: readonly string[], name: string): boolean {
  return packages.some(
    (known) =>
      name === known ||
      (name.startsWith(`${known}/v`) && /^\d+$/.test(name.slice(known.length + 2))),
  );
}
