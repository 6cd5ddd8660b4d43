// Unpacks the compressed test data in test/data into git-ignored folders beside the archives.
// A stamp holding the archive's SHA-256 says whether an unpacked folder is current, so a changed
// archive is unpacked again and an unchanged one costs a hash per test run.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

const STAMP = ".unpacked-from";

/** Makes sure `<dir>` holds the contents of `<dir>.tar.xz` (the archive holds one top folder of that name). */
export function ensureUnpacked(dir: string): string {
  const archive = `${dir}.tar.xz`;
  if (!fs.existsSync(archive)) throw new Error(`test data missing: ${archive}`);
  const digest = createHash("sha256").update(fs.readFileSync(archive)).digest("hex");
  const stamp = path.join(dir, STAMP);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === digest) return dir;
  // Unpack beside the target and rename, so a run that is stopped half-way leaves no partial folder.
  const staging = fs.mkdtempSync(`${dir}.unpacking-`);
  try {
    try {
      execFileSync("tar", ["-xJf", archive, "-C", staging], { stdio: ["ignore", "ignore", "pipe"] });
    } catch (e) {
      throw new Error(`cannot unpack ${archive} with tar (needs tar with xz support): ${(e as Error).message}`);
    }
    const unpacked = path.join(staging, path.basename(dir));
    fs.writeFileSync(path.join(unpacked, STAMP), digest);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(unpacked, dir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}
