// Snippet text (`${1:x}`, `$1`, `\}`) as the plain text a client without snippet support
// inserts: placeholders keep their default text, tab stops vanish, escapes are undone.

export function snippetAsPlainText(snippet: string): string {
  let out = "";
  for (let i = 0; i < snippet.length; i++) {
    const c = snippet[i]!;
    if (c === "\\" && i + 1 < snippet.length) {
      out += snippet[++i];
    } else if (c === "$" && /\d/.test(snippet[i + 1] ?? "")) {
      while (/\d/.test(snippet[i + 1] ?? "")) i++;
    } else if (c === "$" && snippet[i + 1] === "{") {
      // `${N}` or `${N:default}`: keep the default (placeholders here do not nest).
      const close = snippet.indexOf("}", i);
      if (close < 0) return out + snippet.slice(i);
      const body = snippet.slice(i + 2, close);
      const colon = body.indexOf(":");
      out += colon >= 0 ? body.slice(colon + 1) : "";
      i = close;
    } else out += c;
  }
  return out;
}
