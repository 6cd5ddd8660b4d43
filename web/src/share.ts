// Share links: the text, deflate-raw compressed and base64url encoded, in the URL's fragment
// (never sent to a server). A link is untrusted input: its payload is bounded before and
// after decompression, and what it decodes to is only ever put in the editor as text.

/** Longest fragment a link may carry; longer texts are refused with a message. */
export const MAX_LINK_CHARS = 64 * 1024;
/** Largest text a link may expand to (a small payload can inflate to gigabytes). */
export const MAX_SHARED_TEXT_BYTES = 8 * 1024 * 1024;

const PREFIX = "#text=";

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("the link's payload is not base64url");
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`the link's text is bigger than ${limit / 1024 / 1024} MB`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export type ShareLink = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly message: string };

/** The page's address with `text` in its fragment, or why not. */
export async function shareLink(base: string, text: string): Promise<ShareLink> {
  const packed = await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw"), Number.POSITIVE_INFINITY);
  const fragment = PREFIX + toBase64Url(packed);
  if (fragment.length > MAX_LINK_CHARS) {
    return {
      ok: false,
      message: `This text is too big for a link: ${fragment.length} characters compressed, more than ${MAX_LINK_CHARS}. Download it instead (.onnxtxt or .onnx).`,
    };
  }
  return { ok: true, url: base.replace(/#.*$/, "") + fragment };
}

export type SharedText = { readonly kind: "none" } | { readonly kind: "text"; readonly text: string } | { readonly kind: "broken"; readonly message: string };

/** The text a fragment carries. */
export async function sharedText(hash: string): Promise<SharedText> {
  if (!hash.startsWith(PREFIX)) return { kind: "none" };
  const payload = hash.slice(PREFIX.length);
  try {
    if (payload.length > MAX_LINK_CHARS) throw new Error(`the link is longer than ${MAX_LINK_CHARS} characters`);
    const bytes = await pipe(fromBase64Url(payload), new DecompressionStream("deflate-raw"), MAX_SHARED_TEXT_BYTES);
    return { kind: "text", text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch (e) {
    return { kind: "broken", message: `This share link is broken (${e instanceof Error ? e.message : String(e)}); the default example is shown instead.` };
  }
}
