// The bundle: src/main.ts (and the CSS it imports) into app.js and app.css, in
// ../m2lsp/web/static or the folder given (`npm run build -- OUT`). Minified, no source
// map, no hash in the names: the same sources give the same bytes.
import { build } from "esbuild";

const out = process.argv[2] ?? "../m2lsp/web/static";
await build({
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
