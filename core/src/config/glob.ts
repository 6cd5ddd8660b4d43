// Globs for `exclude` and `per-file-ignores`, on '/'-separated paths relative to the
// configuration's folder: `*` and `?` stay within one path segment, `**` spans segments, and a
// pattern without '/' matches a file or folder name at any depth (as in .gitignore and ruff).

const cache = new Map<string, RegExp>();

function toRegExp(glob: string): RegExp {
  // a pattern with a '/' (other than a last one) is anchored at the configuration's folder
  const anchored = glob.replace(/\/$/, "").includes("/");
  let pattern = glob.replace(/^\.\//, "");
  if (!anchored) pattern = `**/${pattern}`;
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      re += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  // a folder's pattern covers everything below it
  return new RegExp(`^${re.replace(/\/$/, "")}(?:/.*)?$`);
}

/** Does `relPath` ('/'-separated, relative) match `glob`, itself or through a parent folder? */
export function globMatches(glob: string, relPath: string): boolean {
  let re = cache.get(glob);
  if (!re) {
    re = toRegExp(glob);
    cache.set(glob, re);
  }
  return re.test(relPath);
}
