// The library entry (core/src/index.ts) runs in a browser: bundled by esbuild for the browser
// platform it must reach no Node built-in module, and the bundle must work on its own.
import { strict as assert } from "node:assert";
import { builtinModules } from "node:module";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import * as api from "../../core/src/index.js";
import { REPO } from "../helpers/paths.js";

const ENTRY = path.join(REPO, "dist/core/src/index.js");
const BUILTINS = new Set(builtinModules);

function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0]!);
}

describe("the library entry in a browser bundle", function () {
  this.timeout(120_000);
  let bundle: string;
  const reached: string[] = [];

  before(async () => {
    const result = await esbuild.build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      plugins: [
        {
          name: "no-node-builtins",
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => {
              if (!isNodeBuiltin(args.path)) return undefined;
              reached.push(`${args.path} (imported by ${path.relative(REPO, args.importer)})`);
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    bundle = result.outputFiles[0]!.text;
  });

  it("imports no Node built-in module", () => {
    assert.deepEqual(reached, []);
  });

  it("works on its own: text -> model -> bytes -> text, check and run", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onnxtxt-browser-"));
    try {
      const file = path.join(dir, "onnxtxt.browser.mjs");
      fs.writeFileSync(file, bundle);
      const bundled = (await import(pathToFileURL(file).href)) as typeof api;
      const text = `<ir_version: 10, opset_import: ["" : 21]>\ng (float[3] x) => (float[3] y) {\n  y = Abs(x)\n}\n`;
      const model = bundled.modelFromText(text).model;
      assert.ok(model);
      // The unbundled library is the reference for what the bundle must give.
      assert.deepEqual(bundled.encodeModel(model), api.encodeModel(api.modelFromText(text).model!));
      assert.equal(bundled.printModel(bundled.decodeModel(bundled.encodeModel(model))), api.printModel(api.decodeModel(api.encodeModel(model))));
      assert.deepEqual(bundled.checkModel(model), []);
      assert.deepEqual([...(await bundled.run(model)).keys()], ["y"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
