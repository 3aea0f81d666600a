import { describe, expect, it } from '@jest/globals';
import { eventBus } from '../../../src/critic/rules/event-bus.js';
import { contextOf } from '../critic-support.js';

const BUS =
  "import { EventEmitter } from 'node:events';\nexport class Orders extends EventEmitter {}\nexport const orders = new Orders();\n";
const subscriber = (from: string, event: string) =>
  `import { orders } from '${from}';\norders.on('${event}', () => undefined);\n`;

describe('event_bus', () => {
  it('reports an EventEmitter subclass with too few subscribing importers', async () => {
    const context = await contextOf({
      'src/orders.ts': BUS,
      'src/mailer.ts': subscriber('./orders.js', 'placed'),
      // Subscribes to something, but not through the bus's file: not counted.
      'src/clicks.ts': "document.addEventListener('click', () => undefined);\n",
      // Imports the bus without subscribing: not counted.
      'src/shop.ts': "import { orders } from './orders.js';\norders.emit('placed');\n",
    });
    expect(eventBus.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'event_bus',
        message:
          'event bus Orders has 1 subscriber (src/mailer.ts); the minimum is 3 (forbidden_patterns.event_bus.min_subscribers)',
        location: { path: 'src/orders.ts', startLine: 2, endLine: 2 },
        symbol: 'Orders',
        measured: 1,
        limit: 3,
      }),
    ]);
  });

  it('passes a bus with three subscribers, one reaching it through a barrel', async () => {
    const context = await contextOf({
      'src/events/orders.ts': BUS,
      'src/events/index.ts': "export * from './orders.js';\n",
      'src/mailer.ts': subscriber('./events/orders.js', 'placed'),
      'src/audit.ts': subscriber('./events/orders.js', 'cancelled'),
      'src/stock.ts': subscriber('./events/index.js', 'placed'),
    });
    expect(eventBus.check(context)).toEqual([]);
  });

  it('recognises a bus by name, counts its own file, and not a test that listens', async () => {
    const context = await contextOf({
      'src/status-bus.ts': [
        'export class StatusBus {',
        '  on(event: string, listener: () => void): void {}',
        '}',
        'export const bus = new StatusBus();',
        "bus.on('boot', () => undefined);",
        '',
      ].join('\n'),
      'src/panel.ts': "import { bus } from './status-bus.js';\nbus.on('ready', () => undefined);\n",
      'test/status-bus.test.ts':
        "import { bus } from '../src/status-bus.js';\nbus.on('ready', () => undefined);\n",
    });
    expect(eventBus.check(context).map((finding) => finding.message)).toEqual([
      'event bus StatusBus has 2 subscribers (src/panel.ts and src/status-bus.ts); the minimum is 3 (forbidden_patterns.event_bus.min_subscribers)',
    ]);
  });
});
