import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const ROOT = 'src/main/java/com/acme';

/**
 * Two Java cycles added on top of a base: one between packages (an import by name one way, an
 * import on demand the other) and one inside a package, where classes use each other unimported.
 */
describe('Java import cycles', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeAll(async () => {
    repo = await makeRepo('java-cycles');
    repo.write('.aureus/policy.yaml', 'version: 1\n');
    repo.write(`${ROOT}/App.java`, 'package com.acme;\n\npublic class App {}\n');
    base = repo.commit('base');
    repo.write(
      `${ROOT}/orders/Order.java`,
      'package com.acme.orders;\n\nimport com.acme.billing.Invoice;\n\npublic class Order {\n  Invoice invoice;\n}\n',
    );
    repo.write(
      `${ROOT}/billing/Invoice.java`,
      'package com.acme.billing;\n\nimport com.acme.orders.*;\nimport java.util.*;\n\npublic class Invoice {\n  List<Order> orders;\n}\n',
    );
    repo.write(
      `${ROOT}/shop/Cart.java`,
      'package com.acme.shop;\n\npublic class Cart {\n  Item first() { return Item.of(this); }\n}\n',
    );
    repo.write(
      `${ROOT}/shop/Item.java`,
      'package com.acme.shop;\n\nclass Item {\n  static Item of(Cart cart) { return new Item(); }\n}\n',
    );
    repo.commit('orders, billing and a shop');
  });
  afterAll(() => repo.remove());

  it('finds the cycle between packages and the one inside a package', async () => {
    const run = await runCliInProcess(['analyze', '--format', 'json'], repo.dir);
    const analysis = JSON.parse(run.stdout);
    expect(analysis.edges).toContainEqual({
      from: `${ROOT}/orders/Order.java`,
      to: `${ROOT}/billing/Invoice.java`,
      typeOnly: false,
    });
    expect(analysis.cycles).toEqual([
      [`${ROOT}/billing/Invoice.java`, `${ROOT}/orders/Order.java`],
      [`${ROOT}/shop/Cart.java`, `${ROOT}/shop/Item.java`],
    ]);
  });

  it('blocks the change as circular_dependency, at the import or the first use', async () => {
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    const cycles = report.findings
      .filter((finding: { ruleId: string }) => finding.ruleId === 'circular_dependency')
      .map((finding: { blocking: boolean; location: { path: string; startLine: number } }) => [
        finding.blocking,
        finding.location.path,
        finding.location.startLine,
      ]);
    expect(cycles).toEqual([
      [true, `${ROOT}/billing/Invoice.java`, 7],
      [true, `${ROOT}/shop/Cart.java`, 4],
    ]);
    expect(report.verdict).toBe('block');
    expect(run.code).toBe(1);
  });
});

/** A bus and the three files that subscribe to it: imported by name, on demand, same package. */
describe('Java event bus subscribers', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeAll(async () => {
    repo = await makeRepo('java-bus');
    repo.write('.aureus/policy.yaml', 'version: 1\n');
    repo.write(
      `${ROOT}/events/OrderBus.java`,
      'package com.acme.events;\n\npublic class OrderBus {\n  public void subscribe(Runnable listener) {}\n}\n',
    );
    const subscriber = (pkg: string, imports: string, name: string) =>
      `package com.acme.${pkg};\n\n${imports}public class ${name} {\n  ${name}(OrderBus bus) {\n    bus.subscribe(() -> {});\n  }\n}\n`;
    repo.write(
      `${ROOT}/mail/Mailer.java`,
      subscriber('mail', 'import com.acme.events.OrderBus;\n\n', 'Mailer'),
    );
    repo.write(
      `${ROOT}/stock/Stock.java`,
      subscriber('stock', 'import com.acme.events.*;\n\n', 'Stock'),
    );
    repo.write(`${ROOT}/events/Audit.java`, subscriber('events', '', 'Audit'));
    repo.commit('a bus and its subscribers');
  });
  afterAll(() => repo.remove());

  it('counts the files that import the bus and subscribe, however they name it', async () => {
    const run = await runCliInProcess(['check', '--commit', 'HEAD', '--format', 'json'], repo.dir);
    const report = JSON.parse(run.stdout);
    expect(
      report.findings.filter((finding: { ruleId: string }) => finding.ruleId === 'event_bus'),
    ).toEqual([]);
    expect(run.code).toBe(0);
  });
});

/** A cycle between two classes, and a copy of one of them elsewhere in the tree. */
describe('A Java class declared twice', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeAll(async () => {
    repo = await makeRepo('java-copy');
    repo.write('.aureus/policy.yaml', 'version: 1\n');
    base = repo.commit('base');
    repo.write('src/main/java/com/x/A.java', 'package com.x;\n\nclass A {\n  B b;\n}\n');
    repo.write('src/main/java/com/x/B.java', 'package com.x;\n\nclass B {\n  A a;\n}\n');
    repo.write('a/A.java', 'package com.x;\n\nclass A {}\n');
    repo.commit('a cycle, and a copy of A that sorts first');
  });
  afterAll(() => repo.remove());

  it('still blocks the cycle: the copy takes no edge away from the real class', async () => {
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    expect(
      report.findings
        .filter((finding: { ruleId: string }) => finding.ruleId === 'circular_dependency')
        .map((finding: { location: { path: string } }) => finding.location.path),
    ).toEqual(['src/main/java/com/x/A.java']);
    expect(report.verdict).toBe('block');
    expect(run.code).toBe(1);
  });
});
