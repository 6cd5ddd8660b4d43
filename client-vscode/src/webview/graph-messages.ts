// The messages between the graph view's page (graph-view.ts) and the extension (graph-panel.ts).
import type { GraphViewData } from "../../../core/src/graph/view-data.js";

/** Extension -> page. `data` is absent while the text does not lower (keep the last picture). */
export type ToView = { readonly type: "graph"; readonly data?: GraphViewData } | { readonly type: "cursor"; readonly offset: number };

/** Page -> extension: `reveal` selects the statement at [start, end). */
export type FromView = { readonly type: "ready" } | { readonly type: "reveal"; readonly start: number; readonly end: number };
