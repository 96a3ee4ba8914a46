import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Imports point one way, app → components → lib → db → core: a layer may import the ones after
 * it, never one before it. servers/ (the processes) and seed/ (the demo data) sit above lib: they
 * may import lib, db and core, and no layer imports them. Each entry names the layers a folder may
 * not reach, by alias or by path.
 */
const layer = (files, forbidden) => ({
  files,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: forbidden.map((name) => ({
          group: [`@/${name}`, `@/${name}/**`, `**/../${name}`, `**/../${name}/**`],
          message: `Imports point app → components → lib → db → core, with servers/ and seed/ above lib; this layer may not import from ${name}/.`,
        })),
      },
    ],
  },
});

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "dist/**", "data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "db/migrations/**"]),
  layer(["servers/**", "seed/**"], ["app", "components"]),
  layer(["app/**"], ["servers", "seed"]),
  layer(["components/**"], ["app", "servers", "seed"]),
  layer(["lib/**"], ["app", "components", "servers", "seed"]),
  layer(["db/**"], ["app", "components", "lib", "servers", "seed"]),
  // The shared vocabulary (roles, plans, ids, time, the request log's terms) imports no layer.
  layer(["core/**"], ["app", "components", "lib", "db", "servers", "seed"]),
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
