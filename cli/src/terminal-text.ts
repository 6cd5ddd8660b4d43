// Text for a terminal: names and messages quote the user's data, which may hold escape
// sequences (`"\x1b]0;pwned\x07"` retitles the window, `\x1b[2J` clears it) or bidi overrides
// that make a message read differently from what it says. These are shown as escapes instead.
/** C0 and C1 controls (not tab or line feed), line and paragraph separators, bidi embeddings and isolates. */
function isControl(code: number): boolean {
  return (
    code <= 0x08 ||
    (code >= 0x0b && code <= 0x1f) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escapeOne(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character (except line feed, tab and the CR of a CRLF) written as `\xNN`/`\uNNNN`. */
export function escapeControls(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isControl(code) || (code === 13 && text.charCodeAt(i + 1) === 10)) continue;
    out += text.slice(from, i) + escapeOne(code);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
