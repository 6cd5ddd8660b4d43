// The text of bytes the model keeps as strings (a STRING attribute, a string tensor's values),
// when they are valid UTF-8: only such strings can be written as text literals; the raise keeps
// others' bytes in a residual.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** `bytes` decoded as UTF-8, or undefined when they are not valid UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
