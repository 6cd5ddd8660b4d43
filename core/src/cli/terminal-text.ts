// Text for a terminal: names and messages quote the user's data, which may hold escape
// sequences (`"\x1b]0;pwned\x07"` retitles the window, `\x1b[2J` clears it) or bidi overrides
// that make a message read differently from what it says. These are shown as escapes instead.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every control character (except line feed, tab and the CR of a CRLF) written as `\xNN`/`\uNNNN`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c, at: number) => (c === "\r" && text.charCodeAt(at + 1) === 10 ? c : escapeOne(c)));
}
