// The slice of playwright-core's API the end-to-end suite uses. playwright-core is installed
// by real-vscode-setup.sh outside the repository's dependencies, so it is loaded at run time
// and typed here (a true boundary).
export interface Locator {
  first(): Locator;
  nth(index: number): Locator;
  count(): Promise<number>;
  textContent(): Promise<string | null>;
  innerText(): Promise<string>;
  isVisible(): Promise<boolean>;
  click(options?: { timeout?: number }): Promise<void>;
  waitFor(options?: { state?: "visible" | "attached" | "hidden"; timeout?: number }): Promise<void>;
}

export interface Keyboard {
  press(key: string): Promise<void>;
  type(text: string, options?: { delay?: number }): Promise<void>;
  insertText(text: string): Promise<void>;
}

export interface Frame {
  locator(selector: string): Locator;
  url(): string;
  /** Evaluates `expression` (source text) in the frame; a promise is awaited. */
  evaluate<R>(expression: string): Promise<R>;
}

export interface Page {
  goto(url: string, options?: { timeout?: number; waitUntil?: string }): Promise<unknown>;
  locator(selector: string): Locator;
  keyboard: Keyboard;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  waitForTimeout(ms: number): Promise<void>;
  frames(): Frame[];
  /** Evaluates `expression` (source text) in the page; a promise is awaited. */
  evaluate<R>(expression: string): Promise<R>;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  /** The page's console messages (its workers' too, in Chromium). */
  on(event: "console", listener: (message: { type(): string; text(): string }) => void): void;
}

export interface Browser {
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  newContext(options?: { viewport?: { width: number; height: number } }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export interface Playwright {
  chromium: { launch(options: { executablePath: string; args?: string[]; headless?: boolean }): Promise<Browser> };
}

/** A request a route handler decides on. */
export interface Route {
  request(): { url(): string };
  continue(): Promise<void>;
  abort(): Promise<void>;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  /** Every request of the context's pages and workers goes through `handler`. */
  route(pattern: string, handler: (route: Route) => Promise<void>): Promise<void>;
}
