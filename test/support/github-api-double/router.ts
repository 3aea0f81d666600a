import type { Operation } from './fixture.js';

export interface RouteMatch {
  readonly operation: Operation;
  /** Path parameters, percent-decoded (Octokit sends `a%2Fb.ts` for a file path). */
  readonly pathParams: Record<string, string>;
}

interface Route {
  readonly operation: Operation;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly literalLength: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(operation: Operation): Route {
  const multiSegment = new Set(
    operation.parameters.filter((p) => p.in === 'path' && p.multiSegment).map((p) => p.name),
  );
  const names: string[] = [];
  let source = '';
  let literalLength = 0;
  for (const piece of operation.path.split(/(\{[^}]+\})/)) {
    const name = /^\{([^}]+)\}$/.exec(piece)?.[1];
    if (name === undefined) {
      source += escapeRegExp(piece);
      literalLength += piece.length;
    } else {
      names.push(name);
      // Lazy, so `{base}...{head}` splits at the first `...` and a multi-segment `{ref}` leaves
      // a literal suffix such as `/check-runs` to the template that spells it.
      source += multiSegment.has(name) ? '(.+?)' : '([^/]+?)';
    }
  }
  return { operation, pattern: new RegExp(`^${source}$`), names, literalLength };
}

/**
 * Matches a request to the fixture's path templates. Templates with more literal text are tried
 * first, so `/commits/{ref}/check-runs` wins over `/commits/{ref}` for the same URL.
 */
export function makeRouter(
  operations: readonly Operation[],
): (method: string, rawPath: string) => RouteMatch | undefined {
  const routes = operations.map(compile).sort((a, b) => b.literalLength - a.literalLength);
  return (method, rawPath) => {
    for (const route of routes) {
      if (route.operation.method !== method.toUpperCase()) continue;
      const match = route.pattern.exec(rawPath);
      if (match === null) continue;
      const pathParams: Record<string, string> = {};
      route.names.forEach((name, index) => {
        const raw = match[index + 1] ?? '';
        pathParams[name] = safeDecode(raw);
      });
      return { operation: route.operation, pathParams };
    }
    return undefined;
  };
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
