/**
 * aiperf-magic: the notebook side of aiperf's one-click apply.
 *
 * The kernel opens a comm on the target `aiperf_magic` for each edit it asks for, with the
 * request in the open message: `{op, cell_id, source, expect, path, session}`. This extension
 * finds the notebook the request names, checks the cell, edits it (or, for `run`, runs it), replies
 * `{ok, reason, new_cell_id, path}` and closes the comm. It also tells each panel the text of the
 * cell it sits in (./cells). Only INotebookTracker is required, so the same build runs in
 * JupyterLab 4 and Notebook 7.
 */
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import { applyRequest, Ledger, parseRequest, type INotebookView, type IReply } from './apply';
import { answerSourceRequests } from './cells';

export const COMM_TARGET = 'aiperf_magic';
/** How long a window that never held the requesting notebook waits before answering by path. */
const DEFER_MS = 1500;

/**
 * Every open connection to a kernel sees the same comm_open (two notebooks on one kernel, or
 * one notebook in two views). The first handler in this page claims it; the others stay silent
 * rather than reply twice or close a comm that another panel is answering.
 */
const claimed = new Set<string>();
/** The edits made here, per kernel session: Undo is refused for any other cell. */
const ledger = new Ledger();
/** Kernel connection client id -> the notebook it belonged to, kept after the notebook closes. */
const clientPaths = new Map<string, string>();

function viewsOfKernel(tracker: INotebookTracker, kernelId: string): INotebookView[] {
  const views: INotebookView[] = [];
  tracker.forEach(panel => {
    const kernel = panel.sessionContext.session?.kernel;
    if (kernel?.id === kernelId) {
      views.push({ model: panel.content.model, path: panel.context.path, clientId: kernel.clientId });
    }
  });
  return views;
}

function remember(panel: NotebookPanel): void {
  const kernel = panel.sessionContext.session?.kernel;
  if (kernel) {
    clientPaths.set(kernel.clientId, panel.context.path);
  }
}

function handleOpen(
  tracker: INotebookTracker,
  kernel: Kernel.IKernelConnection,
  comm: Kernel.IComm,
  msg: KernelMessage.ICommOpenMsg
): void {
  if (claimed.has(comm.commId)) {
    return;
  }
  claimed.add(comm.commId);
  // Comm ids are unique per request; forget them later so the set stays small.
  window.setTimeout(() => claimed.delete(comm.commId), 60_000);
  const req = parseRequest(msg.content.data);
  const answer = (): void => {
    let result: IReply;
    if (typeof req === 'string') {
      result = { ok: false, reason: req, new_cell_id: null, path: null };
    } else {
      try {
        const kernelSession = `${kernel.id}/${msg.header.session}`;
        result = applyRequest(viewsOfKernel(tracker, kernel.id), req, ledger, kernelSession, clientPaths);
      } catch (err) {
        result = { ok: false, reason: `The notebook refused the edit: ${String(err)}`, new_cell_id: null, path: null };
      }
    }
    const runIndex = result.run_index;
    delete result.run_index;
    comm.send(result as any);
    comm.close();
    if (typeof req !== 'string' && req.op === 'run' && result.ok && runIndex !== undefined) {
      runCell(tracker, kernel.id, result.path, runIndex);
    }
  };
  const known =
    typeof req === 'string' ||
    !req.session ||
    clientPaths.has(req.session) ||
    viewsOfKernel(tracker, kernel.id).some(v => v.clientId === req.session);
  if (known) {
    answer();
    return;
  }
  // This window never held the notebook that ran the cell: another window (a second browser tab)
  // may hold it and answer at once, which closes the comm. Answer by path only if none did.
  let closed = false;
  comm.onClose = () => {
    closed = true;
  };
  window.setTimeout(() => {
    if (!closed && !comm.isDisposed) {
      answer();
    }
  }, DEFER_MS);
}

/** Runs one cell of the notebook at `path` on this kernel, as Shift+Enter would (without moving on). */
function runCell(tracker: INotebookTracker, kernelId: string, path: string | null, index: number): void {
  tracker.forEach(panel => {
    if (panel.context.path !== path || panel.sessionContext.session?.kernel?.id !== kernelId) {
      return;
    }
    panel.content.activeCellIndex = index;
    void NotebookActions.run(panel.content, panel.sessionContext);
  });
}

function watch(tracker: INotebookTracker, kernel: Kernel.IKernelConnection | null | undefined): void {
  if (!kernel) {
    return;
  }
  // Registering again replaces the earlier handler, so this is safe on every kernel change.
  kernel.registerCommTarget(COMM_TARGET, (comm, msg) => handleOpen(tracker, kernel, comm, msg));
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'aiperf-magic:apply',
  description: "Applies and undoes aiperf_magic's verified rewrites in notebook cells.",
  autoStart: true,
  requires: [INotebookTracker],
  activate: (_app: JupyterFrontEnd, tracker: INotebookTracker) => {
    const track = (panel: NotebookPanel) => {
      watch(tracker, panel.sessionContext.session?.kernel);
      remember(panel);
      panel.sessionContext.kernelChanged.connect((_, change) => {
        watch(tracker, change.newValue);
        remember(panel);
      });
      panel.context.pathChanged.connect(() => remember(panel));
    };
    tracker.forEach(track);
    tracker.widgetAdded.connect((_, panel) => track(panel));
    answerSourceRequests(tracker);
  }
};

export default plugin;
