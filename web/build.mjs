// Build the web client into web/dist/ (git-ignored): one bundled script,
// the page and the style sheet. `node build.mjs` (or `npm run build`).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "dist");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  outfile: join(out, "app.js"),
  format: "esm",
  target: ["es2022"],
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
});
for (const name of ["index.html", "style.css", "cards.css", "favicon.svg"]) {
  copyFileSync(join(here, "static", name), join(out, name));
}
console.log(`web client built into ${out}`);
