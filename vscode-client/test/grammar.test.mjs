// Tokenizes lines with the extension's TextMate grammars (vscode-textmate, as VS Code
// does) and checks the scope of each field.  Real lines come from ../shared/data when it is
// there (M2LSP_SHARED_DATA overrides); fixed lines always run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import oniguruma from "vscode-oniguruma";
import textmate from "vscode-textmate";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..");
const data = process.env.M2LSP_SHARED_DATA ?? path.join(root, "..", "..", "shared", "data");

const wasm = readFileSync(path.join(root, "node_modules", "vscode-oniguruma", "release", "onig.wasm"));
await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
const registry = new textmate.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }),
  loadGrammar: async (scope) => {
    const file = { "source.gec-m2": "gec-m2.tmLanguage.json", "text.gec-cged": "gec-cged.tmLanguage.json" }[scope];
    return file ? textmate.parseRawGrammar(readFileSync(path.join(root, "syntaxes", file), "utf8"), file) : null;
  },
});
const m2 = await registry.loadGrammar("source.gec-m2");
const cged = await registry.loadGrammar("text.gec-cged");

/** [text, scopes] of each token of each line. */
function tokenize(grammar, lines) {
  let state = textmate.INITIAL;
  return lines.map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes]);
  });
}

/** The scopes of the first token whose text is `text`. */
function scopesOf(tokens, text) {
  const found = tokens.find(([t]) => t === text);
  assert.ok(found, `no token ${JSON.stringify(text)} in ${JSON.stringify(tokens.map(([t]) => t))}`);
  return found[1].join(" ");
}

test("M2: every field of an A line has its scope", () => {
  const [s, a, noop, t] = tokenize(m2, [
    "S The cat sat on mat .",
    "A 4 4|||M:DET|||the||a|||REQUIRED|||-NONE-|||1",
    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0",
    "T0-A0 冬 阴 功",
  ]);
  assert.match(scopesOf(s, "S"), /keyword\.other\.sentence/);
  assert.match(scopesOf(a, "A"), /keyword\.other\.edit/);
  assert.match(scopesOf(a, "4"), /constant\.numeric\.span\.start/);
  assert.match(scopesOf(a, "M:DET"), /entity\.name\.type\.error-type/);
  assert.match(scopesOf(a, "the"), /string\.unquoted\.correction/);
  assert.match(scopesOf(a, "||"), /punctuation\.separator\.alternative/);
  assert.match(scopesOf(a, "REQUIRED"), /keyword\.control\.required/);
  assert.match(scopesOf(a, "1"), /variable\.parameter\.annotator/);
  assert.match(scopesOf(noop, "noop"), /keyword\.other\.noop/);
  assert.match(scopesOf(noop, "-1"), /constant\.numeric\.span/);
  assert.match(scopesOf(t, "T0-A0"), /keyword\.other\.target/);
});

test("M2: a malformed A line is marked, not coloured as fields", () => {
  const [bad] = tokenize(m2, ["A 1 x|||R"]);
  assert.match(scopesOf(bad, " 1 x|||R"), /invalid\.illegal/);
});

test("CGED: tags, attributes, offsets and types", () => {
  const lines = tokenize(cged, [
    '<DOC>',
    '<TEXT id="200405109523200554_2_1x1">',
    '他们知不道吸烟。',
    '</TEXT>',
    '<ERROR start_off="3" end_off="4" type="W"></ERROR>',
    '<!-- a note -->',
  ]);
  assert.match(scopesOf(lines[0], "DOC"), /entity\.name\.tag/);
  assert.match(scopesOf(lines[1], "id"), /entity\.other\.attribute-name/);
  assert.match(scopesOf(lines[1], "200405109523200554_2_1x1"), /string\.quoted\.double/);
  assert.equal(lines[2].length, 1);
  assert.doesNotMatch(lines[2][0][1].join(" "), /tag/);
  assert.match(scopesOf(lines[4], "start_off"), /attribute-name\.offset/);
  assert.match(scopesOf(lines[4], "3"), /constant\.numeric\.offset/);
  assert.match(scopesOf(lines[4], "W"), /entity\.name\.type\.error-type/);
  assert.match(scopesOf(lines[5], "<!--"), /comment\.block/);
});

function realLines(relative, count, encoding = "utf8") {
  const file = path.join(data, relative);
  return existsSync(file) ? readFileSync(file, encoding).split(/\r?\n/).slice(0, count) : null;
}

test("real data: CoNLL-2014 gold, BEA-2019 dev, MuCGEC (every A line fully scoped)", (t) => {
  const files = ["conll2014/gold/official-2014.combined.m2", "bea2019-dev/ABCN.dev.gold.bea19.m2",
                 "mucgec/demo.ref.m2.char"];
  const found = files.map((f) => realLines(f, 400)).filter(Boolean);
  if (found.length === 0) {
    t.skip(`real data is absent: ${data}`);
    return;
  }
  let edits = 0;
  for (const lines of found) {
    for (const [i, tokens] of tokenize(m2, lines).entries()) {
      if (!lines[i].startsWith("A ")) continue;
      edits++;
      const scopes = tokens.map(([, s]) => s.join(" "));
      assert.ok(!scopes.some((s) => s.includes("invalid")), `not a valid A line: ${lines[i]}`);
      assert.ok(scopes.some((s) => s.includes("variable.parameter.annotator")), lines[i]);
      assert.ok(scopes.some((s) => s.includes("entity.name.type") || s.includes("noop")), lines[i]);
    }
  }
  assert.ok(edits > 300, `only ${edits} edit lines`);
});

test("real data: CGED 2018 training XML", (t) => {
  const lines = realLines("cged/cged2018/train_CGED2018.xml", 200);
  if (!lines) {
    t.skip(`real data is absent: ${data}`);
    return;
  }
  let errors = 0;
  for (const [i, tokens] of tokenize(cged, lines).entries()) {
    if (!lines[i].startsWith("<ERROR")) continue;
    errors++;
    const scopes = tokens.map(([, s]) => s.join(" "));
    assert.ok(scopes.some((s) => s.includes("constant.numeric.offset")), lines[i]);
    assert.ok(scopes.some((s) => s.includes("error-type")), lines[i]);
  }
  assert.ok(errors > 20, `only ${errors} ERROR lines`);
});
