// `npm run lint` as part of the suite: Biome's recommended rules (minus those listed off in
// biome.json), no import cycle between files (the one mutual recursion, raise-graph <-> raise-attribute, is marked where it is), and the layer rules (grammar imports
// nothing of core; core imports nothing of the CLI, the server or the extension; the server and the
// extension nothing of the CLI; Node modules only in the CLI, the server, core/src/io and the
// interpreter's worker pool).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO } from "../helpers/paths.js";

describe("lint", function () {
  this.timeout(120_000);

  it("finds nothing in the repository", () => {
    const biome = path.join(REPO, "node_modules/@biomejs/biome/bin/biome");
    const r = spawnSync(process.execPath, [biome, "check", "--max-diagnostics=50", "."], { cwd: REPO, encoding: "utf8" });
    assert.equal(r.status, 0, `biome found lint problems or unformatted files (npm run lint; npm run format fixes the layout):\n${r.stdout}\n${r.stderr}`);
  });
});
