import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Imports point one way, app → components → lib → db → core: a layer may import the ones after
 * it, never one before it. servers/ (the processes) and seed/ (the demo data) sit above lib: they
 * may import lib, db and core, and no layer imports them. Each entry names the layers a folder may
 * not reach, by alias or by path.
 */
const layer = (files, forbidden, { paths = [], ignores = [] } = {}) => ({
  files,
  ignores,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        paths,
        patterns: forbidden.map((name) => ({
          group: [`@/${name}`, `@/${name}/**`, `**/../${name}`, `**/../${name}/**`],
          message: `Imports point app → components → lib → db → core, with servers/ and seed/ above lib; this layer may not import from ${name}/.`,
        })),
      },
    ],
  },
});

// Sonner loads on a page's first use, through components/toast.ts (docs/decisions/0067-toasts-load-on-first-use.md).
const SONNER = [{ name: "sonner", message: "Import toast from @/components/toast: sonner is loaded on the page's first use, not with it." }];
const SONNER_LOADERS = ["components/toast.ts", "components/ui/sonner.tsx"];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    "dist/**",
    "packages/*/dist/**",
    "packages/sdk/src/generated/**",
    "data/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "db/migrations/**",
  ]),
  layer(["servers/**", "seed/**"], ["app", "components"]),
  layer(["app/**"], ["servers", "seed"], { paths: SONNER }),
  layer(["components/**"], ["app", "servers", "seed"], { paths: SONNER, ignores: SONNER_LOADERS }),
  layer(SONNER_LOADERS, ["app", "servers", "seed"]),
  layer(["lib/**"], ["app", "components", "servers", "seed"]),
  layer(["db/**"], ["app", "components", "lib", "servers", "seed"]),
  // The shared vocabulary (roles, plans, ids, time, the request log's terms) imports no layer.
  layer(["core/**"], ["app", "components", "lib", "db", "servers", "seed"]),
  {
    // Small modules: no production file over 300 lines, blank lines and comments included (the
    // tests, e2e and benches are long lists of cases, and are left out).
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["tests/**", "e2e/**", "bench/**", "**/*.test.{ts,tsx}"],
    rules: { "max-lines": ["error", { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // 80 lines of code, its comments and blank lines aside, because a function reads on one screen:
    // a longer component splits into the parts of the UI it draws, or a hook for its state.
    files: [
      "app/**/*.{ts,tsx}",
      "components/**/*.{ts,tsx}",
      "lib/**/*.{ts,tsx}",
      "db/**/*.ts",
      "core/**/*.ts",
      "servers/**/*.ts",
      "seed/**/*.ts",
      "packages/*/src/**/*.ts",
      "scripts/**/*.{ts,mjs}",
      "*.{ts,mjs}",
    ],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // core/ is vocabulary (types, values, small pure helpers); computation that needs more lines belongs to a feature in lib/ (docs/architecture.md).
    files: ["core/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "max-lines-per-function": ["error", { max: 20, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Cycles are looked for in the project's own modules; dependencies are not parsed.
    settings: { "import/ignore": ["node_modules"] },
    rules: {
      // A module that imports itself through others has no order its parts can load in, nor a layer.
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
]);
