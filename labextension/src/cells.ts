/**
 * Tells an aiperf panel about the cell it sits in, so it can disable Apply as soon as the cell no
 * longer holds the code that ran (and enable it again when an undo brings that code back).
 *
 * The panel (in the cell's output area) dispatches the DOM event `aiperf-cell-source` from its own
 * node, bubbling. This finds the notebook cell that holds the node and answers in the event's
 * detail: `source`, the cell's text now, `cellId`, the cell's id, and `watch(callback)`, which calls
 * `callback(source)` on every change of that text and returns a function that stops it. Nothing else
 * is shared: the panel decides what the text means.
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

type Cell = NotebookPanel['content']['widgets'][number];

export const SOURCE_EVENT = 'aiperf-cell-source';

export interface ISourceDetail {
  source?: string;
  /** The cell's id: a panel shown under another cell than the one it measured ignores that cell. */
  cellId?: string;
  watch?: (callback: (source: string) => void) => () => void;
}

/** The cell of an open notebook whose node holds `node` (a panel in its output area), or null. */
export function cellHolding(tracker: INotebookTracker, node: Node): Cell | null {
  let found: Cell | null = null;
  tracker.forEach(panel => {
    if (found === null && panel.content.node.contains(node)) {
      found = panel.content.widgets.find(cell => cell.node.contains(node)) ?? null;
    }
  });
  return found;
}

/** Answers every panel's question about its cell, in every notebook of this page. */
export function answerSourceRequests(tracker: INotebookTracker): void {
  document.addEventListener(
    SOURCE_EVENT,
    event => {
      const detail = (event as CustomEvent<ISourceDetail>).detail;
      const target = event.target;
      if (!detail || typeof detail !== 'object' || detail.source !== undefined || !(target instanceof Node)) {
        return;
      }
      const cell = cellHolding(tracker, target);
      if (!cell) {
        return;
      }
      const shared = cell.model.sharedModel;
      detail.source = shared.getSource();
      detail.cellId = cell.model.id;
      detail.watch = callback => {
        const changed = (_: unknown, change: { sourceChange?: unknown }): void => {
          if (change.sourceChange) {
            callback(shared.getSource());
          }
        };
        shared.changed.connect(changed);
        return () => {
          shared.changed.disconnect(changed);
        };
      };
    },
    true
  );
}
