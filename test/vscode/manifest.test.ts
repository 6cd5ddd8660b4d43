// The extension manifest and language configuration agree with the code that reads them.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readSettings, SETTINGS_SECTION } from "../../client-vscode/src/settings.js";
import { BINARY_AS_TEXT_SCHEME, textViewOf } from "../../client-vscode/src/uris.js";
import { injections, SYNTAXES_DIR } from "../../scripts/gen-textmate.js";
import { REPO } from "../helpers/paths.js";
import { manifestGrammars } from "./textmate-helper.js";

const CLIENT = path.join(REPO, "client-vscode");
const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT, "package.json"), "utf8")) as {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string }[];
    menus: Record<string, { command: string }[]>;
    configuration: { properties: Record<string, { default: unknown }> };
    configurationDefaults: Record<string, Record<string, unknown>>;
    resourceLabelFormatters: { scheme: string; formatting: { label: string } }[];
  };
};
const languageConfiguration = JSON.parse(fs.readFileSync(path.join(CLIENT, "language-configuration.json"), "utf8")) as {
  comments: { lineComment: string };
  brackets: [string, string][];
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
};

describe("extension manifest", () => {
  it("declares every setting the extension reads, with the same default", () => {
    const read: [string, unknown][] = [];
    readSettings(<T>(key: string, fallback: T) => {
      read.push([key, fallback]);
      return fallback;
    });
    const declared = manifest.contributes.configuration.properties;
    assert.ok(read.length >= 5);
    for (const [key, fallback] of read) {
      const full = `${SETTINGS_SECTION}.${key}`;
      assert.ok(full in declared, `${full} is not declared`);
      assert.deepEqual(declared[full]!.default, fallback, full);
    }
  });

  it("activates only for onnxtxt documents, the open-binary command and its views, and menus name declared commands", () => {
    // Not at start-up: a window with no ONNX file must not load the extension.
    assert.deepEqual([...manifest.activationEvents].sort(), [
      "onCommand:onnxtxt.openAsText",
      "onFileSystem:onnxtxt-binary",
      "onLanguage:c",
      "onLanguage:cpp",
      "onLanguage:markdown",
      "onLanguage:onnxtxt",
      "onLanguage:python",
    ]);
    const declared = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const items of Object.values(manifest.contributes.menus)) for (const item of items) assert.ok(declared.has(item.command), item.command);
    assert.equal(manifest.main, "./dist/extension.cjs");
  });

  it("labels a binary model's text view by the model's path, from keys its query has", () => {
    const [formatter, ...more] = manifest.contributes.resourceLabelFormatters;
    assert.equal(more.length, 0);
    assert.equal(formatter!.scheme, BINARY_AS_TEXT_SCHEME);
    const query = JSON.parse(textViewOf({ scheme: "file", authority: "", path: "/w/m.onnx", query: "", fragment: "" }).query) as Record<string, string>;
    // VS Code fills `${query.KEY}` from a JSON query; an unknown key would leave the tab blank.
    const label = formatter!.formatting.label.replace(/\$\{query\.(\w+)\}/g, (_, key: string) => query[key] ?? "(missing)");
    assert.equal(label, "/w/m.onnx (text)");
  });

  it("formats on save through the server by default", () => {
    const defaults = manifest.contributes.configurationDefaults["[onnxtxt]"]!;
    assert.equal(defaults["editor.formatOnSave"], true);
    const pkg = JSON.parse(fs.readFileSync(path.join(CLIENT, "package.json"), "utf8")) as { publisher: string; name: string };
    assert.equal(defaults["editor.defaultFormatter"], `${pkg.publisher}.${pkg.name}`);
  });

  it("uses an engine no older than the language client needs", () => {
    const client = JSON.parse(fs.readFileSync(path.join(REPO, "node_modules/vscode-languageclient/package.json"), "utf8")) as { engines: { vscode: string } };
    const minor = (range: string) => Number(/\^?1\.(\d+)/.exec(range)?.[1]);
    assert.ok(minor(manifest.engines.vscode) >= minor(client.engines.vscode), `${manifest.engines.vscode} < ${client.engines.vscode}`);
  });
});

describe("extension manifest grammars", () => {
  it("contributes the .onnxtxt grammar for the language and every injection grammar where the generator injects it", () => {
    const grammars = manifestGrammars();
    assert.deepEqual(
      grammars.filter((g) => !g.injectTo).map((g) => [g.scopeName, g.path]),
      [["source.onnxtxt", "./syntaxes/onnxtxt.tmLanguage.json"]],
    );
    const generated = injections();
    assert.equal(grammars.filter((g) => g.injectTo).length, generated.length);
    for (const { file, injectTo, grammar } of generated) {
      const entry = grammars.find((g) => g.scopeName === grammar.scopeName);
      assert.ok(entry, `${grammar.scopeName} is not contributed`);
      assert.equal(path.join(CLIENT, entry.path), path.join(SYNTAXES_DIR, file));
      assert.deepEqual(entry.injectTo, injectTo, grammar.scopeName);
      // Each host named in injectTo is one the injection selector accepts.
      for (const host of injectTo) assert.ok(grammar.injectionSelector.includes(`L:${host} `) || grammar.injectionSelector === `L:${host}`, host);
      // The embedded ONNX text is the onnxtxt language (comments, brackets) for VS Code.
      const embedded = JSON.stringify(grammar).match(/meta\.embedded\.(?:block|line)\.onnxtxt/g) ?? [];
      assert.ok(embedded.length > 0, grammar.scopeName);
      for (const scope of embedded) assert.equal(entry.embeddedLanguages?.[scope], "onnxtxt", `${grammar.scopeName}: ${scope}`);
    }
  });

  it("packs every grammar file into the .vsix", () => {
    const ignore = fs.readFileSync(path.join(CLIENT, ".vscodeignore"), "utf8");
    assert.ok(ignore.split("\n").includes("!syntaxes/*.tmLanguage.json"));
    for (const g of manifestGrammars()) assert.ok(fs.existsSync(path.join(CLIENT, g.path)), g.path);
  });
});

describe("language configuration", () => {
  it("comments with # and pairs every bracket of the syntax", () => {
    assert.equal(languageConfiguration.comments.lineComment, "#");
    assert.deepEqual(languageConfiguration.brackets.map((b) => b.join("")).sort(), ["()", "<>", "[]", "{}"]);
  });

  it("indents after an opening bracket and outdents at a closing one", () => {
    const increase = new RegExp(languageConfiguration.indentationRules.increaseIndentPattern);
    const decrease = new RegExp(languageConfiguration.indentationRules.decreaseIndentPattern);
    for (const line of ["main (float x) => (float y) {", "  y = If (c) <", "<", "  w = {  # weights"]) assert.ok(increase.test(line), line);
    for (const line of ["  y = Relu (x)", "  y = Relu (x)  # {", '  s = Constant <value = string {"{"}> ()']) assert.ok(!increase.test(line), line);
    for (const line of ["}", "  >", "  ) => (float y)"]) assert.ok(decrease.test(line), line);
    assert.ok(!decrease.test("  y = Relu (x)"));
  });
});
