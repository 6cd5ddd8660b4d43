// Workers from embedded script text: a Blob URL works from any host and from file://.
const urls = new Map<string, string>();

export function scriptUrl(code: string): string {
  let url = urls.get(code);
  if (!url) {
    url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
    urls.set(code, url);
  }
  return url;
}

export function startWorker(code: string, name: string): Worker {
  return new Worker(scriptUrl(code), { name });
}
