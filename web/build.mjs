// Builds the web board into bot/web/static/: app.<hash>.js and app.<hash>.css under
// assets/, named by the SHA-256 of their bytes, and index.html naming them. The same
// source gives the same bytes (no timestamps, no absolute paths, a sorted walk), so CI
// rebuilds and compares with the committed files (.ci/run).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "bot", "web", "static");

const common = {
  bundle: true,
  minify: true,
  write: false,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
  absWorkingDir: here,
};

const script = await esbuild.build({
  ...common,
  entryPoints: ["src/main.ts"],
  format: "iife",
  target: ["es2022"],
});
const style = await esbuild.build({
  ...common,
  entryPoints: ["src/style.css"],
  loader: { ".css": "css" },
});

function hashed(name, ext, bytes) {
  const digest = createHash("sha256").update(bytes).digest("hex").slice(0, 12);
  return `${name}.${digest}.${ext}`;
}

const js = script.outputFiles[0].contents;
const css = style.outputFiles[0].contents;
const jsName = hashed("app", "js", js);
const cssName = hashed("app", "css", css);

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
writeFileSync(join(out, "assets", jsName), js);
writeFileSync(join(out, "assets", cssName), css);
const page = readFileSync(join(here, "src", "index.html"), "utf8")
  .replace("{{script}}", `/assets/${jsName}`)
  .replace("{{style}}", `/assets/${cssName}`);
writeFileSync(join(out, "index.html"), page);
console.log(`built ${jsName} (${js.length} bytes), ${cssName} (${css.length} bytes)`);
