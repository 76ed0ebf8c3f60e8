/**
 * The edits one request may make to a notebook: replace a cell's source, insert a cell below it,
 * or undo either. Every edit first checks that the cell still holds the text the kernel expects,
 * so a cell the user changed after the run is never overwritten.
 */
import type { INotebookModel, NotebookPanel } from '@jupyterlab/notebook';

export type Op = 'replace' | 'insert_below' | 'undo';

export interface IRequest {
  op: Op;
  cell_id: string;
  source: string | null;
  expect: string;
}

export interface IReply {
  ok: boolean;
  reason: string;
  new_cell_id: string | null;
}

const EDITED =
  'The cell was edited after aiperf ran it, so it was left as it is. ' +
  'Run the cell again with %%aiperf to get a fix for the current code.';
const MISSING =
  'The cell is not open in any notebook on this kernel (it was deleted, or its notebook was closed). ' +
  'Reopen the notebook and run the cell again.';

/** Validates the untrusted message the kernel sent; returns a refusal reason or the request. */
export function parseRequest(data: unknown): IRequest | string {
  if (typeof data !== 'object' || data === null) {
    return 'The request is not an object.';
  }
  const d = data as Record<string, unknown>;
  if (d.op !== 'replace' && d.op !== 'insert_below' && d.op !== 'undo') {
    return `Unknown op ${JSON.stringify(d.op)}: expected replace, insert_below or undo.`;
  }
  if (typeof d.cell_id !== 'string' || d.cell_id === '') {
    return 'The request names no cell_id.';
  }
  if (typeof d.expect !== 'string') {
    return 'The request carries no expected cell text.';
  }
  if (d.source !== null && typeof d.source !== 'string') {
    return 'The request source must be text.';
  }
  if (d.op !== 'undo' && typeof d.source !== 'string') {
    return 'The request carries no new source.';
  }
  return {
    op: d.op,
    cell_id: d.cell_id,
    source: (d.source as string | null) ?? null,
    expect: d.expect
  };
}

/** The kernel strips nothing, but a notebook may add or drop the final newline on save. */
function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\n+$/, '') === b.replace(/\n+$/, '');
}

function findCell(model: INotebookModel, cellId: string): number {
  for (let i = 0; i < model.cells.length; i++) {
    if (model.cells.get(i).id === cellId) {
      return i;
    }
  }
  return -1;
}

function reply(ok: boolean, reason = '', newCellId: string | null = null): IReply {
  return { ok, reason, new_cell_id: newCellId };
}

/**
 * Applies one request to the first of `panels` holding the cell. `panels` are the notebooks
 * whose kernel sent the request: panels of other kernels are never searched.
 */
export function applyRequest(panels: NotebookPanel[], req: IRequest): IReply {
  for (const panel of panels) {
    const model = panel.content.model;
    if (!model) {
      continue;
    }
    const index = findCell(model, req.cell_id);
    if (index < 0) {
      continue;
    }
    const cell = model.cells.get(index);
    if (!sameText(cell.sharedModel.getSource(), req.expect)) {
      return reply(false, EDITED);
    }
    if (req.op === 'insert_below') {
      const inserted = model.sharedModel.insertCell(index + 1, {
        cell_type: 'code',
        source: req.source ?? '',
        // Code written by a tool is not trusted until the user runs it.
        metadata: { trusted: false }
      });
      const added = model.cells.get(index + 1);
      if (added) {
        added.trusted = false;
      }
      return reply(true, '', inserted.getId());
    }
    if (req.op === 'undo' && req.source === null) {
      // Undoing an insert: the inserted cell goes away again.
      model.sharedModel.deleteCell(index);
      return reply(true);
    }
    cell.sharedModel.setSource(req.source ?? '');
    return reply(true);
  }
  return reply(false, MISSING);
}
