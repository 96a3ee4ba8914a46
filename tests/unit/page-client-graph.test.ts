import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * What a dashboard page sends to the browser with its first load (docs/decisions/0065-on-demand-dialogs.md):
 * the modules reached from its "use client" boundaries through static imports. A dialog's form or
 * a confirmation is loaded with import() when it opens, so it must not be reached statically too
 * (the bundler would put it back in the page's chunks); zod and the passkey browser library stay
 * out; read-only parts render on the server, so they are never client modules.
 */
const root = path.resolve(import.meta.dirname, "../..");

type Graph = { staticClient: Set<string>; onDemand: Set<string> };

function resolve(from: string, specifier: string): string {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (base === null) return specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${specifier} from ${from} does not resolve`);
}

/** A module's static imports that survive compilation (not `import type`, not only types), and its import() targets. */
function importsOf(file: string): { statics: string[]; dynamics: string[]; directive: string | null } {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const first = source.statements[0];
  const directive = first !== undefined && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) ? first.expression.text : null;
  const statics: string[] = [];
  const dynamics: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const onlyTypes =
        clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!onlyTypes) statics.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      statics.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!))
      dynamics.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { statics: statics.map((specifier) => resolve(file, specifier)), dynamics: dynamics.map((specifier) => resolve(file, specifier)), directive };
}

/** The page's client graph: from the page (a server component) to its client boundaries, then everything they import statically. */
function clientGraph(page: string): Graph {
  const graph: Graph = { staticClient: new Set(), onDemand: new Set() };
  const seen = new Set<string>();
  const walk = (file: string, inClient: boolean) => {
    const key = `${inClient}:${file}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (!path.isAbsolute(file)) {
      if (inClient) graph.staticClient.add(file);
      return;
    }
    const { statics, dynamics, directive } = importsOf(file);
    // A client module gets a "use server" module's actions as references: none of its imports reaches the browser.
    if (inClient && directive === "use server") return;
    const nowClient = inClient || directive === "use client";
    if (nowClient) {
      graph.staticClient.add(file);
      for (const target of dynamics) graph.onDemand.add(target);
    }
    for (const target of statics) walk(target, nowClient);
  };
  walk(path.join(root, page), false);
  return graph;
}

const relative = (files: Iterable<string>) => [...files].map((file) => (path.isAbsolute(file) ? path.relative(root, file) : file)).sort();

const PAGES: { page: string; serverOnly: string[] }[] = [
  {
    page: "app/[orgSlug]/settings/members/page.tsx",
    serverOnly: ["app/[orgSlug]/settings/members/members-table.tsx", "app/[orgSlug]/settings/members/pending-invitations.tsx"],
  },
  { page: "app/[orgSlug]/settings/webhooks/(list)/page.tsx", serverOnly: [] },
  { page: "app/[orgSlug]/settings/webhooks/[endpointId]/page.tsx", serverOnly: ["app/[orgSlug]/settings/webhooks/[endpointId]/delivery-log.tsx"] },
  { page: "app/[orgSlug]/settings/plan/page.tsx", serverOnly: [] },
  {
    page: "app/settings/security/page.tsx",
    serverOnly: [
      "app/settings/security/passkeys-card.tsx",
      "app/settings/security/authenticator-app-card.tsx",
      "app/settings/security/recovery-codes-card.tsx",
    ],
  },
  { page: "app/[orgSlug]/settings/api/audit/(log)/page.tsx", serverOnly: ["app/[orgSlug]/settings/api/audit/audit-rows.tsx", "components/request-format.tsx"] },
  { page: "app/[orgSlug]/settings/api/activity/page.tsx", serverOnly: ["components/activity-entries.tsx"] },
  { page: "app/[orgSlug]/settings/api/(list)/page.tsx", serverOnly: [] },
  { page: "app/[orgSlug]/settings/api/keys/[keyId]/page.tsx", serverOnly: ["components/request-format.tsx"] },
  { page: "app/[orgSlug]/settings/api/usage/page.tsx", serverOnly: [] },
];

/** Packages a page's first load must not carry: the schemas' library, the passkey ceremony's, the table's, the toasts', the tooltips' placement. */
const HEAVY = ["zod", "@simplewebauthn/browser", "@tanstack/react-table", "sonner", "@floating-ui/react-dom"];

describe.each(PAGES)("$page", ({ page, serverOnly }) => {
  const graph = clientGraph(page);
  const client = relative(graph.staticClient);

  it("loads what it loads on demand only on demand", () => {
    expect(relative(graph.onDemand).filter((file) => client.includes(file))).toEqual([]);
  });

  it("sends no schema, passkey, table, toast or placement library with its first load", () => {
    expect(client.filter((file) => HEAVY.includes(file))).toEqual([]);
  });

  it("renders its read-only parts on the server", () => {
    expect(client.filter((file) => serverOnly.includes(file))).toEqual([]);
  });
});

it("the dialogs' forms are loaded on demand", () => {
  const onDemand = relative(PAGES.flatMap(({ page }) => [...clientGraph(page).onDemand]));
  expect(onDemand).toEqual(
    expect.arrayContaining([
      "app/[orgSlug]/settings/members/invite-member-form.tsx",
      "app/[orgSlug]/settings/members/member-change-confirmation.tsx",
      "app/[orgSlug]/settings/webhooks/add-endpoint-form.tsx",
      "app/[orgSlug]/settings/plan/plan-change-confirmation.tsx",
      "app/settings/security/totp-setup-steps.tsx",
      "app/settings/security/add-passkey-form.tsx",
      "lib/audit-filters.ts",
    ]),
  );
});

// The logs' filters and the key list's status filter are the browser's own select (components/ui/native-select.tsx):
// the Radix select renders every option of a closed menu and hydrates it with the page.
it.each([
  "app/[orgSlug]/settings/api/audit/(log)/page.tsx",
  "app/[orgSlug]/settings/api/activity/page.tsx",
  "app/[orgSlug]/settings/api/usage/page.tsx",
  "app/[orgSlug]/settings/api/(list)/page.tsx",
])("%s draws its filters without the Radix select", (page) => {
  const client = relative(clientGraph(page).staticClient);
  expect(client).toContain("components/ui/native-select.tsx");
  expect(client).not.toContain("components/ui/select.tsx");
});

// Toasts load on the page's first use (docs/decisions/0067-toasts-load-on-first-use.md).
it.each(["app/[orgSlug]/layout.tsx", "app/settings/security/layout.tsx"])("%s loads sonner on first use, not with the page", (layout) => {
  const graph = clientGraph(layout);
  expect(relative(graph.staticClient)).not.toContain("sonner");
  expect(relative(graph.onDemand)).toContain("sonner");
});

// A member row's role select and actions menu load when the pointer or the keyboard comes to them
// (docs/decisions/0070-member-menus-load-on-intent.md): a Radix select and menu per row hydrated with the page.
it("the members page loads its rows' select and menu on intent", () => {
  const graph = clientGraph("app/[orgSlug]/settings/members/page.tsx");
  expect(relative(graph.staticClient)).not.toContain("components/ui/select.tsx");
  expect(relative(graph.staticClient)).not.toContain("components/ui/dropdown-menu.tsx");
  expect(relative(graph.onDemand)).toContain("app/[orgSlug]/settings/members/member-control-menus.tsx");
});
