// The page's unit tests: each test/*.test.ts (pure modules: no DOM, no browser) bundled
// by esbuild into a temporary folder and run by Node's own test runner (node --test).
// `npm test`; arguments after it go to node --test (e.g. --test-name-pattern=tap).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const tests = readdirSync(join(here, "test"))
  .filter((name) => name.endsWith(".test.ts"))
  .sort();
const out = mkdtempSync(join(tmpdir(), "reel-page-tests-"));
try {
  await esbuild.build({
    entryPoints: tests.map((name) => join("test", name)),
    absWorkingDir: here,
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: ["node20"],
    logLevel: "warning",
  });
  const files = tests.map((name) => join(out, name.replace(/\.ts$/, ".mjs")));
  const run = spawnSync(process.execPath, ["--test", "--test-reporter=spec", ...process.argv.slice(2), ...files], {
    stdio: "inherit",
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
