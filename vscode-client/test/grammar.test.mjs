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
    const file = {
      "source.gec-m2": "gec-m2.tmLanguage.json",
      "text.gec-cged": "gec-cged.tmLanguage.json",
      "text.gec-cged-truth": "gec-cged-truth.tmLanguage.json",
      "text.gec-cged-input": "gec-cged-input.tmLanguage.json",
      "text.gec-multigec": "gec-multigec.tmLanguage.json",
      "text.gec-ua-gec": "gec-ua-gec.tmLanguage.json",
    }[scope];
    return file ? textmate.parseRawGrammar(readFileSync(path.join(root, "syntaxes", file), "utf8"), file) : null;
  },
});
const m2 = await registry.loadGrammar("source.gec-m2");
const cged = await registry.loadGrammar("text.gec-cged");
const truth = await registry.loadGrammar("text.gec-cged-truth");
const input = await registry.loadGrammar("text.gec-cged-input");
const multigec = await registry.loadGrammar("text.gec-multigec");
const uagec = await registry.loadGrammar("text.gec-ua-gec");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

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

/** The first 400 lines of each file that is there; the test is skipped when none is. */
function realFiles(t, files) {
  const found = files.map((f) => realLines(f, 400)).filter(Boolean);
  if (found.length === 0) t.skip(`real data is absent: ${data}`);
  return found;
}

test("real data: CoNLL-2014 gold, BEA-2019 dev, MuCGEC (every A line fully scoped)", (t) => {
  const files = ["conll2014/gold/official-2014.combined.m2", "bea2019-dev/ABCN.dev.gold.bea19.m2",
                 "mucgec/demo.ref.m2.char"];
  const found = realFiles(t, files);
  if (found.length === 0) return;
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

test("CGED truth: ids, offsets, types, answers, correct, comments; other lines marked", () => {
  const [error, correct, spelled, comment, bad] = tokenize(truth, [
    "1001,\t9,\t10,\tS,\t想,\t要",
    "A2-0657, correct",
    "A2-0777, 3, 3, Selection",
    "# a note",
    "A2-0777, 3, x, S",
  ]);
  assert.match(scopesOf(error, "1001"), /entity\.name\.label\.sentence-id/);
  assert.match(scopesOf(error, "9"), /constant\.numeric\.offset\.start/);
  assert.match(scopesOf(error, "10"), /constant\.numeric\.offset\.end/);
  assert.match(scopesOf(error, "S"), /entity\.name\.type\.error-type/);
  assert.match(scopesOf(error, "想"), /string\.unquoted\.correction/);
  assert.match(scopesOf(error, "要"), /string\.unquoted\.correction/);
  assert.match(scopesOf(correct, "correct"), /keyword\.other\.correct/);
  assert.match(scopesOf(spelled, "Selection"), /entity\.name\.type\.error-type/);
  assert.match(scopesOf(comment, "# a note"), /comment\.line/);
  assert.match(scopesOf(bad, "A2-0777, 3, x, S"), /invalid\.illegal/);
});

test("CGED truth: NLP-TEA 2014's sid, Type lines", () => {
  const [typed, lower] = tokenize(truth, ["C1-1711-1, Redundant", "\tB1-0201-1, redundant"]);
  assert.match(scopesOf(typed, "C1-1711-1"), /entity\.name\.label\.sentence-id/);
  assert.match(scopesOf(typed, "Redundant"), /entity\.name\.type\.error-type/);
  assert.match(scopesOf(lower, "redundant"), /entity\.name\.type\.error-type/);
});

test("CGED input: both id styles, the sentence, other lines marked; the first line", () => {
  const [wrapped, plain, bad] = tokenize(input, ["(sid=A2-0003-1)\t我先恭喜妳", "12345\t在不正常的家庭",
                                                 "no tab here"]);
  assert.match(scopesOf(wrapped, "A2-0003-1"), /entity\.name\.label\.sentence-id/);
  assert.match(scopesOf(wrapped, "我先恭喜妳"), /string\.unquoted\.sentence/);
  assert.match(scopesOf(plain, "12345"), /entity\.name\.label\.sentence-id/);
  assert.match(scopesOf(bad, "no tab here"), /invalid\.illegal/);
  const language = manifest.contributes.languages.find((l) => l.id === "gec-cged-input");
  const first = new RegExp(language.firstLine);
  for (const line of ["(sid=A2-0003-1)\t我先恭喜妳", "12345\t在不正常的家庭"]) assert.ok(first.test(line), line);
  for (const line of ["name\tvalue", "12345\t中\textra", "A2-0657, correct", "S a b ."])
    assert.ok(!first.test(line), line);
});

test("MultiGEC essays: the header's id, a malformed header, the text; the first line and names", () => {
  const [header, text, bad] = tokenize(multigec, ["### essay_id = 12", "Hej, jag heter Anna.",
                                                   "### essay_id=12"]);
  assert.match(scopesOf(header, "12"), /entity\.name\.section\.essay-id/);
  assert.match(scopesOf(header, "essay_id"), /keyword\.other\.essay-id/);
  assert.match(scopesOf(text, "Hej, jag heter Anna."), /string\.unquoted\.essay/);
  assert.match(scopesOf(bad, "### essay_id=12"), /invalid\.illegal/);
  const language = manifest.contributes.languages.find((l) => l.id === "gec-multigec");
  assert.ok(new RegExp(language.firstLine).test("### essay_id = 1"));
  assert.ok(!new RegExp(language.firstLine).test("# A heading"));
  assert.ok(language.filenamePatterns.includes("*-orig-dev.md"));
});

test("UA-GEC: an annotation's source, target and type", () => {
  const [line] = tokenize(uagec, ["Я {пишу=>писав:::error_type=G/Tense} лист {в=>у}."]);
  assert.match(scopesOf(line, "пишу"), /markup\.deleted\.source/);
  assert.match(scopesOf(line, "писав"), /markup\.inserted\.target/);
  assert.match(scopesOf(line, "G/Tense"), /entity\.name\.type\.error-type/);
  assert.match(scopesOf(line, "у"), /markup\.inserted\.target/);
});

test("CGED truth: the first-line pattern picks truth files and nothing else", () => {
  const language = manifest.contributes.languages.find((l) => l.id === "gec-cged-truth");
  const first = new RegExp(language.firstLine);
  for (const line of ["1000,\t13,\t19,\tW", "A2-0657, correct", "200405109525201343_2_5x1, correct",
                      "C1-1711-1, Redundant", "\tB2-1452-2, correct"])
    assert.ok(first.test(line), line);
  for (const line of ["S The cat sat .", "<DOC>", '<TEXT id="1">', "A 1 2|||R|||x|||REQUIRED|||-NONE-|||0",
                      "Hello, world"])
    assert.ok(!first.test(line), line);
});

test("real data: CGED truth files of 2015, 2016 and 2018 (every well-formed line scoped)", (t) => {
  const files = ["cged/cged2015/nlptea15cged_release1.0/Test/NLPTEA15_CGED_TestTruth.txt",
                 "cged/cged2016/nlptea16cged_release1.0/Test/CGED16_HSK_Test_Truth.txt",
                 "cged/cged2018/test_truth0.txt"];
  const found = realFiles(t, files);
  if (found.length === 0) return;
  let lines = 0;
  for (const text of found) {
    for (const [i, tokens] of tokenize(truth, text).entries()) {
      if (!text[i].trim()) continue;
      lines++;
      const scopes = tokens.map(([, s]) => s.join(" "));
      // CGED 2018's test truth has ids with nothing after them: m2lsp check reports those
      // lines as T001 (malformed), and the grammar marks them, and only them
      const idOnly = /^[^,\s]+,\s*$/.test(text[i]);
      assert.equal(scopes.some((s) => s.includes("invalid")), idOnly, text[i]);
      if (idOnly) continue;
      assert.ok(scopes.some((s) => s.includes("sentence-id")), text[i]);
      assert.ok(scopes.some((s) => s.includes("error-type") || s.includes("correct")), text[i]);
    }
  }
  assert.ok(lines > 1000, `only ${lines} truth lines`);
});
