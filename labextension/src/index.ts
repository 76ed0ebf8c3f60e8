/**
 * aiperf-magic: the notebook side of aiperf's one-click apply.
 *
 * The kernel opens a comm on the target `aiperf_magic` for each edit it asks for, with the
 * request in the open message: `{op, cell_id, source, expect}`. This extension checks the cell,
 * edits it, replies `{ok, reason, new_cell_id}` and closes the comm. Only INotebookTracker is
 * required, so the same build runs in JupyterLab 4 and Notebook 7.
 */
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import { applyRequest, parseRequest, type IReply } from './apply';

export const COMM_TARGET = 'aiperf_magic';

/**
 * Every open connection to a kernel sees the same comm_open (two notebooks on one kernel, or
 * one notebook in two views). The first handler in this page claims it; the others stay silent
 * rather than reply twice or close a comm that another panel is answering.
 */
const claimed = new Set<string>();

function panelsOfKernel(tracker: INotebookTracker, kernelId: string): NotebookPanel[] {
  const panels: NotebookPanel[] = [];
  tracker.forEach(panel => {
    if (panel.sessionContext.session?.kernel?.id === kernelId) {
      panels.push(panel);
    }
  });
  return panels;
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
  let answer: IReply;
  const req = parseRequest(msg.content.data);
  if (typeof req === 'string') {
    answer = { ok: false, reason: req, new_cell_id: null };
  } else {
    try {
      answer = applyRequest(panelsOfKernel(tracker, kernel.id), req);
    } catch (err) {
      answer = { ok: false, reason: `The notebook refused the edit: ${String(err)}`, new_cell_id: null };
    }
  }
  comm.send(answer as any);
  comm.close();
  // Comm ids are unique per request; forget them later so the set stays small.
  window.setTimeout(() => claimed.delete(comm.commId), 60_000);
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
      panel.sessionContext.kernelChanged.connect((_, change) => watch(tracker, change.newValue));
    };
    tracker.forEach(track);
    tracker.widgetAdded.connect((_, panel) => track(panel));
  }
};

export default plugin;
