/**
 * The edits one request may make to a notebook: replace a cell's source, insert a cell below it,
 * replace an earlier cell above it (the one that defines a function the cell calls, found by the
 * text it ran with), undo any of them, or run the cell again (after Apply, to measure the new code). Every request first checks that the cell still holds the text the kernel expects,
 * so a cell the user changed after the run is never overwritten; only the notebook the cell ran
 * in is edited (a copied notebook keeps its cells' ids), and Undo only undoes edits this
 * extension made.
 */
import type { INotebookModel } from '@jupyterlab/notebook';

export type Op = 'replace' | 'insert_below' | 'replace_above' | 'undo' | 'run';

export interface IRequest {
  op: Op;
  cell_id: string;
  source: string | null;
  expect: string;
  /** For `replace_above`: the text the earlier cell ran with (the one to replace), and its name. */
  above?: string;
  above_name?: string;
  /** The notebook the kernel was started for (absolute, or relative to the server root), or null. */
  path: string | null;
  /** The `session` of the execute request that ran the cell: its notebook's kernel connection. */
  session: string | null;
}

export interface IReply {
  ok: boolean;
  reason: string;
  new_cell_id: string | null;
  /** The notebook that was edited (relative to the server root); null when nothing was. */
  path: string | null;
  /** For a `run` request: the index of the cell to run in that notebook (not sent to the kernel). */
  run_index?: number;
}

/** What the edits need to know of one open notebook. */
export interface INotebookView {
  model: INotebookModel | null;
  /** The notebook's path, relative to the server root. */
  path: string;
  /** The client id of the notebook's kernel connection (the `session` of its requests). */
  clientId: string | null;
}

const EDITED =
  'The cell was edited after aiperf ran it, so it was left as it is. ' +
  'Run the cell again with %%aiperf to get a fix for the current code.';
const MISSING =
  'The notebook that ran this cell is not open on this kernel, or the cell is no longer in it ' +
  '(it was deleted, or its notebook was closed). Reopen the notebook and run the cell again.';
const AMBIGUOUS =
  'Several open notebooks on this kernel hold a cell with this id (a copied notebook?), and the ' +
  'kernel did not say which one ran it, so none was edited. Run the cell again.';
const NOT_OURS =
  'aiperf did not make this edit in this browser window (or it was already undone), so it left ' +
  'the cell as it is. Use Edit > Undo in the notebook instead.';

function aboveMissing(name: string | undefined): string {
  const which = name ? `The cell that defines the function (${name})` : 'The cell that defines the function';
  return (
    `${which} is not above this cell with the code it ran, so nothing was edited ` +
    '(it was edited since, or it is in another notebook). Edit it by hand, or run %aiperf apply N.'
  );
}

/** Validates the untrusted message the kernel sent; returns a refusal reason or the request. */
export function parseRequest(data: unknown): IRequest | string {
  if (typeof data !== 'object' || data === null) {
    return 'The request is not an object.';
  }
  const d = data as Record<string, unknown>;
  if (d.op !== 'replace' && d.op !== 'insert_below' && d.op !== 'replace_above' && d.op !== 'undo' && d.op !== 'run') {
    return `Unknown op ${JSON.stringify(d.op)}: expected replace, insert_below, replace_above, undo or run.`;
  }
  if (typeof d.cell_id !== 'string' || d.cell_id === '') {
    return 'The request names no cell_id.';
  }
  if (typeof d.expect !== 'string') {
    return 'The request carries no expected cell text.';
  }
  if (d.source !== null && d.source !== undefined && typeof d.source !== 'string') {
    return 'The request source must be text.';
  }
  if ((d.op === 'replace' || d.op === 'insert_below' || d.op === 'replace_above') && typeof d.source !== 'string') {
    return 'The request carries no new source.';
  }
  if (d.op === 'replace_above' && typeof d.above !== 'string') {
    return 'The request names no earlier cell text to replace.';
  }
  for (const key of ['path', 'session'] as const) {
    if (d[key] !== undefined && d[key] !== null && typeof d[key] !== 'string') {
      return `The request's ${key} must be text or null.`;
    }
  }
  return {
    op: d.op,
    cell_id: d.cell_id,
    source: (d.source as string | null) ?? null,
    expect: d.expect,
    path: (d.path as string | null | undefined) || null,
    session: (d.session as string | null | undefined) || null,
    ...(typeof d.above === 'string' ? { above: d.above } : {}),
    ...(typeof d.above_name === 'string' ? { above_name: d.above_name } : {})
  };
}

/** The kernel strips nothing, but a notebook may add or drop the final newline on save. */
function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\n+$/, '') === b.replace(/\n+$/, '');
}

export function findCell(model: INotebookModel, cellId: string): number {
  for (let i = 0; i < model.cells.length; i++) {
    if (model.cells.get(i).id === cellId) {
      return i;
    }
  }
  return -1;
}

function reply(ok: boolean, reason = '', newCellId: string | null = null, path: string | null = null): IReply {
  return { ok, reason, new_cell_id: newCellId, path };
}

/**
 * Whether the kernel's `named` path is the notebook at the front end's `path`: the same, or the
 * same file under the server's root (the kernel knows absolute paths).
 */
function pathScore(path: string, named: string): number {
  const a = path.replace(/\\/g, '/').replace(/^\/+/, '');
  const b = named.replace(/\\/g, '/');
  return a !== '' && (b === a || b.endsWith('/' + a)) ? a.length : 0;
}

/** The notebooks the request may edit: the one it names, else none (or a reason to refuse). */
export function notebooksOf(
  views: INotebookView[],
  req: IRequest,
  clientPaths: Map<string, string>
): INotebookView[] | string {
  if (req.session) {
    const live = views.filter(v => v.clientId === req.session);
    if (live.length) {
      return live;
    }
  }
  // The notebook's connection is gone (it was closed and reopened): find it by its path, as this
  // window knew it, else as the kernel knows it; the longest match is the most specific.
  const path = (req.session && clientPaths.get(req.session)) || req.path;
  if (path) {
    const scores = views.map(v => pathScore(v.path, path));
    const best = Math.max(0, ...scores);
    return best ? views.filter((_, i) => scores[i] === best) : [];
  }
  // An older kernel names no notebook: only a cell id held by exactly one notebook is edited.
  const holders = views.filter(v => v.model && findCell(v.model, req.cell_id) >= 0);
  return new Set(holders.map(v => v.model)).size > 1 ? AMBIGUOUS : holders;
}

/** Edits this extension made, per kernel session: only these may be undone. */
export class Ledger {
  private _edits = new Map<string, Map<string, { kind: 'replaced' | 'inserted'; path: string }>>();

  record(kernelSession: string, cellId: string, kind: 'replaced' | 'inserted', path: string): void {
    let edits = this._edits.get(kernelSession);
    if (!edits) {
      edits = new Map();
      this._edits.set(kernelSession, edits);
    }
    edits.set(cellId, { kind, path });
  }

  /** Whether this extension made this kind of edit to this cell of this notebook (and forgets it). */
  take(kernelSession: string, cellId: string, kind: 'replaced' | 'inserted', path: string): boolean {
    const edits = this._edits.get(kernelSession);
    const edit = edits?.get(cellId);
    if (!edits || !edit || edit.kind !== kind || edit.path !== path) {
      return false;
    }
    edits.delete(cellId);
    return true;
  }
}

/**
 * Applies one request to the notebook it names among `views` (the notebooks whose kernel sent
 * it: notebooks of other kernels are never searched). `kernelSession` identifies the kernel
 * process that asked; the `ledger` holds the edits made for it.
 */
export function applyRequest(
  views: INotebookView[],
  req: IRequest,
  ledger: Ledger,
  kernelSession: string,
  clientPaths: Map<string, string>
): IReply {
  const targets = notebooksOf(views, req, clientPaths);
  if (typeof targets === 'string') {
    return reply(false, targets);
  }
  for (const view of targets) {
    const model = view.model;
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
    if (req.op === 'run') {
      // Only a cell that still holds the code the panel expects is run: never other text.
      return { ...reply(true, '', null, view.path), run_index: index };
    }
    if (req.op === 'replace_above') {
      // The nearest cell above that still holds the text the function was defined with: any other
      // cell, or one edited since it ran, is left as it is.
      for (let i = index - 1; i >= 0; i--) {
        const earlier = model.cells.get(i);
        if (earlier.type === 'code' && sameText(earlier.sharedModel.getSource(), req.above ?? '')) {
          earlier.sharedModel.setSource(req.source ?? '');
          ledger.record(kernelSession, earlier.id, 'replaced', view.path);
          return reply(true, '', earlier.id, view.path);
        }
      }
      return reply(false, aboveMissing(req.above_name));
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
      ledger.record(kernelSession, inserted.getId(), 'inserted', view.path);
      return reply(true, '', inserted.getId(), view.path);
    }
    if (req.op === 'undo') {
      // An undo with no source deletes a cell this extension inserted; with a source, it puts back
      // a cell this extension replaced. Anything else is not ours to undo.
      const kind = req.source === null ? 'inserted' : 'replaced';
      if (!ledger.take(kernelSession, req.cell_id, kind, view.path)) {
        return reply(false, NOT_OURS);
      }
      if (kind === 'inserted') {
        model.sharedModel.deleteCell(index);
      } else {
        cell.sharedModel.setSource(req.source ?? '');
      }
      return reply(true, '', null, view.path);
    }
    cell.sharedModel.setSource(req.source ?? '');
    ledger.record(kernelSession, req.cell_id, 'replaced', view.path);
    return reply(true, '', null, view.path);
  }
  return reply(false, MISSING);
}
