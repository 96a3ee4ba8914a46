import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A module's static imports that stay in the output: type-only ones are erased, `import()` is a chunk of its own. */
function staticImports(source: string): { specifier: string; names: string[] }[] {
  const found: { specifier: string; names: string[] }[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\s)([^;]*?)\s+from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm)) {
    if (match[3]) {
      found.push({ specifier: match[3], names: [] });
      continue;
    }
    const clause = match[1]!;
    const named = /\{([^}]*)\}/.exec(clause)?.[1];
    const names = (named ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const onlyTypes =
      named !== undefined &&
      names.every((name) => name.startsWith("type ")) &&
      clause
        .replace(/\{[^}]*\}/, "")
        .replace(/,/g, "")
        .trim() === "";
    if (!onlyTypes) found.push({ specifier: match[2]!, names: names.filter((name) => !name.startsWith("type ")).map((name) => name.split(/\s+as\s+/)[0]!) });
  }
  return found;
}

function resolve(specifier: string, from: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  return ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((end) => base + end).find((file) => statSync(file, { throwIfNoEntry: false })?.isFile()) ?? null;
}

const directive = (source: string) => /^\s*(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/\s*)*["']use (client|server)["']/.exec(source)?.[1];

/**
 * What the browser loads up front for these entries: the packages (with the names taken from
 * each) that client modules reachable from them import statically.
 */
function clientPackages(entries: string[]): Map<string, Set<string>> {
  const packages = new Map<string, Set<string>>();
  const seen = new Set<string>();
  const visit = (file: string, client: boolean) => {
    const source = readFileSync(file, "utf8");
    const kind = directive(source);
    if (client && kind === "server") return; // a server action: the browser gets a reference
    const inClient = client || kind === "client";
    const key = `${file}|${inClient}`;
    if (seen.has(key)) return;
    seen.add(key);
    for (const { specifier, names } of staticImports(source)) {
      const local = resolve(specifier, file);
      if (local) visit(local, inClient);
      else if (inClient && !specifier.startsWith("@/") && !specifier.startsWith(".")) {
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
        const taken = packages.get(name) ?? new Set<string>();
        for (const each of names) taken.add(each);
        packages.set(name, taken);
      }
    }
  };
  for (const entry of entries) visit(path.join(ROOT, entry), entry === "instrumentation-client.ts");
  return packages;
}

const SIGN_IN = ["instrumentation-client.ts", "app/layout.tsx", "app/(auth)/layout.tsx", "app/(auth)/signin/page.tsx"];
const DASHBOARD = [
  "instrumentation-client.ts",
  "app/layout.tsx",
  "app/[orgSlug]/layout.tsx",
  "app/[orgSlug]/settings/layout.tsx",
  "app/settings/security/layout.tsx",
];

// The JavaScript every dashboard page and the sign-in page load before their own
// (docs/decisions/0063-shared-page-weight.md): the framework, icons, class names, toasts, and of
// radix the button's Slot, the avatar and the form's label. A menu, a popover, a dialog, a
// tooltip, zod's schemas, the passkey library or a date library comes when it is used.
describe("the JavaScript every page shares", () => {
  it.each([
    ["every dashboard page", DASHBOARD, ["react", "next", "lucide-react", "sonner", "clsx", "tailwind-merge", "radix-ui"], ["Slot", "Avatar", "Label"]],
    ["the sign-in page", SIGN_IN, ["react", "next", "lucide-react", "clsx", "tailwind-merge", "radix-ui"], ["Slot", "Label"]],
  ])("%s loads only the light packages up front", (_, entries, light, radixParts) => {
    const packages = clientPackages(entries);
    expect([...packages.keys()].filter((name) => !light.includes(name))).toEqual([]);
    expect([...(packages.get("radix-ui") ?? [])].filter((name) => !radixParts.includes(name))).toEqual([]);
  });
});
