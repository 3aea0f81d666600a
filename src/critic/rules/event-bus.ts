import {
  compareStrings,
  type ModuleEdge,
  type ModuleGraph,
} from '../../analysis/graph/module-graph.js';
import type { ClassFact } from '../../model/facts.js';
import type { Finding } from '../../model/finding.js';
import { findingOf, spanLocation } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { ProjectState, Rule } from '../rule.js';
import { distinctlyNamed } from '../symbols.js';
import { listed } from '../wording.js';

/** Base classes that make a class an event bus, by the last segment of `extends`. */
const BUS_BASES: ReadonlySet<string> = new Set(['EventEmitter', 'EventTarget', 'Subject']);
/** `OrderEventBus`, `AppBus`, `StatusEmitter`. */
const BUS_NAME = /(Bus|Emitter)$/;

/**
 * An event bus with fewer subscribers than `min_subscribers`. A bus: a class extending
 * `EventEmitter`, `EventTarget` or `Subject` (the last segment of `extends`, so
 * `events.EventEmitter` counts), or named `*Bus`/`*Emitter`. Its subscribers are counted as
 * files, an approximation the facts allow (a subscription call does not say what it
 * subscribes to): the distinct files that make at least one subscription call (`.on`,
 * `.once`, `.addListener`, `.addEventListener`, `.subscribe`) and import the bus's file,
 * directly or through re-exporting barrels (import graph edges, type-only ones included: a
 * file may take the bus as a typed parameter), plus the bus's own file if it subscribes.
 * Tests and generated code are left out on both sides: a test listening to check that events
 * fire is not a consumer that justifies the bus. Symbol: the class name; location: its span.
 */
export const eventBus: Rule = {
  id: 'event_bus',
  description:
    'An event bus with fewer subscribers than forbidden_patterns.event_bus.min_subscribers.',
  check({ policy, project }) {
    const minimum = policy.forbidden_patterns.event_bus.min_subscribers;
    const { isProduct } = pathKinds(policy, project);
    const incoming = incomingEdges(project.graph);
    const findings: Finding[] = [];
    for (const [path, facts] of project.facts) {
      if (!isProduct(path)) continue;
      for (const { item: cls, symbol } of distinctlyNamed(facts.classes, (cls) => cls.name)) {
        if (!isBus(cls)) continue;
        const subscribers = subscribersOf(path, project, incoming).filter(isProduct);
        if (subscribers.length >= minimum) continue;
        findings.push(
          findingOf('event_bus', {
            message: `event bus ${cls.name} has ${subscribersWording(subscribers)}; the minimum is ${minimum} (forbidden_patterns.event_bus.min_subscribers)`,
            location: spanLocation(path, cls.span),
            symbol,
            measured: subscribers.length,
            limit: minimum,
          }),
        );
      }
    }
    return findings;
  },
};

function isBus(cls: ClassFact): boolean {
  const base = cls.extends?.split('.').at(-1);
  return (base !== undefined && BUS_BASES.has(base)) || BUS_NAME.test(cls.name);
}

/** Each file's incoming import edges. */
function incomingEdges(graph: ModuleGraph): Map<string, ModuleEdge[]> {
  const incoming = new Map<string, ModuleEdge[]>();
  for (const edge of graph.edges) {
    const edges = incoming.get(edge.to);
    if (edges === undefined) incoming.set(edge.to, [edge]);
    else edges.push(edge);
  }
  return incoming;
}

type Incoming = ReadonlyMap<string, readonly ModuleEdge[]>;

/** The files that subscribe to something and reach the bus's file (see eventBus), sorted. */
function subscribersOf(busFile: string, project: ProjectState, incoming: Incoming): string[] {
  const candidates = new Set([busFile]);
  for (const target of reexportersOf(busFile, incoming)) {
    for (const edge of incoming.get(target) ?? []) candidates.add(edge.from);
  }
  const subscribes = (path: string) =>
    (project.facts.get(path)?.eventSubscriptions.length ?? 0) > 0;
  return [...candidates].filter(subscribes).sort(compareStrings);
}

/** The bus's file and every barrel that re-exports it, however many levels up. */
function reexportersOf(busFile: string, incoming: Incoming): Set<string> {
  const found = new Set([busFile]);
  const queue = [busFile];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const edge of incoming.get(next) ?? []) {
      if (!edge.reexport || found.has(edge.from)) continue;
      found.add(edge.from);
      queue.push(edge.from);
    }
  }
  return found;
}

function subscribersWording(subscribers: readonly string[]): string {
  if (subscribers.length === 0) return 'no subscriber';
  const noun = subscribers.length === 1 ? 'subscriber' : 'subscribers';
  return `${subscribers.length} ${noun} (${listed(subscribers)})`;
}
