// The aiperf panel's view (anywidget). It draws the model's JSON: `data` (the report, set once) and
// `ui` (what the buttons changed), and sends each click to the kernel as a custom message. Every
// string from the report is put in with textContent; the only markup is built here, node by node.

const NO_ANSWER_MS = 8000;
const RESTARTED = "The kernel restarted: run the cell again.";
const EDITED = "The cell was edited after it ran: Apply is off until it holds that code again " +
  "(undo the edit), or run the cell again for fixes of the new code.";
const APPLIED_OTHER = "The cell holds another fix now: Undo it first.";
const TRY_AFTER_APPLY = "Try runs the code as it ran, before Apply, against this rewrite.";

// A notebook may add or drop the final newline on save (as the notebook extension allows).
const sameText = (a, b) => a === b || a.replace(/\n+$/, "") === b.replace(/\n+$/, "");

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

const muted = (text, cls) => h("div", { class: "aiperf-muted " + (cls || "") }, text);

function inline(runs) {
  return (runs || []).map(([kind, text, href]) => {
    if (kind === "c") return h("code", {}, text);
    if (kind === "b") return h("b", {}, text);
    if (kind === "link" && /^https?:\/\//.test(href)) {
      return h("a", { href, target: "_blank", rel: "noopener noreferrer" }, text);
    }
    return text;
  });
}

function blocks(list, only) {
  const out = [];
  let keep = !only;
  for (const b of list || []) {
    if (b.t === "h") {
      keep = !only || only.includes(b.text);
      if (keep) out.push(h("div", { class: "aiperf-doc-h" }, b.text));
    } else if (!keep) {
      continue;
    } else if (b.t === "p") {
      out.push(h("p", {}, inline(b.inl)));
    } else if (b.t === "code") {
      out.push(h("pre", { class: "aiperf-code" }, b.text));
    } else if (b.t === "ul") {
      out.push(h("ul", {}, b.items.map((i) => h("li", {}, inline(i)))));
    }
  }
  return out;
}

// A link-styled button that shows and hides `target`.
function toggle(label, target, cls) {
  target.hidden = true;
  const button = h("button", { class: "aiperf-link " + (cls || ""), type: "button", "aria-expanded": "false" }, label);
  button.addEventListener("click", () => {
    target.hidden = !target.hidden;
    button.setAttribute("aria-expanded", String(!target.hidden));
  });
  return button;
}

function codeLink(code, docs) {
  const doc = docs[code];
  const box = h("div", { class: "aiperf-doc" });
  if (!doc) return [h("b", { class: "aiperf-codename" }, code), box];
  box.append(h("div", { class: "aiperf-doc-title" }, `${code} ${doc.name}: ${doc.message}`), ...blocks(doc.blocks));
  const link = toggle(code, box, "aiperf-codename");
  link.title = `What ${code} means (%aiperf explain ${code})`;
  return [link, box];
}

// Text where each code that has a finding card below becomes a link to that card ("See AIP301").
function withCodes(text, cards) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\bAIP\d{3}\b/g)) {
    const card = cards[m[0]];
    if (!card) continue;
    out.push(text.slice(last, m.index));
    const link = h("button", { class: "aiperf-link", type: "button", title: `Go to ${m[0]} below` }, m[0]);
    link.addEventListener("click", () => {
      card.scrollIntoView({ block: "nearest", behavior: "smooth" });
      card.classList.add("aiperf-flash");
      setTimeout(() => card.classList.remove("aiperf-flash"), 1200);
    });
    out.push(link);
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

function header(data) {
  const items = (data.header || []).map(([label, value]) =>
    h("span", { class: "aiperf-item" }, h("span", { class: "aiperf-label" }, label), " ", h("span", { class: "aiperf-value" }, value)));
  return h("div", { class: "aiperf-header" },
    h("span", { class: "aiperf-badge" }, "aiperf" + (data.cell ? " " + data.cell : "")), items);
}

function summary(data, cards) {
  const rows = [];
  if (data.error) rows.push(h("div", { class: "aiperf-error" }, "The cell raised ", h("code", {}, data.error)));
  const v = data.verdict;
  if (v) {
    const [link, doc] = codeLink(v.code, data.docs);
    const row = h("div", { class: "aiperf-verdict" },
      h("span", { class: "aiperf-key" }, "Bottleneck"), h("span", { class: "aiperf-tag" }, link, " ", v.title), " ",
      withCodes(v.sentence, cards));
    rows.push(row, doc);
    if (v.evidence) doc.append(muted("evidence: " + v.evidence));
  }
  if (data.loader) rows.push(h("div", { class: "aiperf-row" }, h("span", { class: "aiperf-key" }, "Input"), data.loader));
  const c = data.cause;
  if (c) {
    rows.push(h("div", { class: "aiperf-row aiperf-cause" }, h("span", { class: "aiperf-key" }, "Where"),
      `${c.share} of the time in line ${c.line}: `, h("code", {}, c.code), c.callee ? ` (in ${c.callee})` : ""));
  }
  if (v && v.advice) {
    rows.push(h("div", { class: "aiperf-row" }, h("span", { class: "aiperf-key" }, "Advice"), withCodes(v.advice, cards)));
  }
  if (data.wait) rows.push(muted(data.wait));
  return rows;
}

function diffBlock(lines) {
  return h("pre", { class: "aiperf-diff" },
    lines.map(([kind, text]) => h("span", { class: "aiperf-diff-line aiperf-diff-" + ({ "+": "add", "-": "del", "@": "hunk" }[kind] || "ctx") }, text)));
}

function comparison(r) {
  const box = h("div", { class: "aiperf-comparison" });
  const mark = h("b", { class: r.ok ? "aiperf-equal" : "aiperf-different" }, r.mark);
  const line = h("div", {}, mark, r.headline ? " " + r.headline : "");
  for (const f of r.facts) line.append(" · ", h("span", { class: "aiperf-fact aiperf-" + f.kind }, f.text));
  box.append(line);
  for (const n of r.notice || []) box.append(muted(n, "aiperf-notice"));
  if (r.bars) {
    const top = Math.max(r.bars[0][1], r.bars[1][1]) || 1;
    box.append(h("div", { class: "aiperf-bars" }, r.bars.map(([label, value], i) =>
      h("div", { class: "aiperf-bar-row" }, h("span", { class: "aiperf-bar-label" }, i ? "after" : "before"),
        h("span", { class: "aiperf-bar aiperf-bar-" + (i ? "after" : "before"), style: `width:${Math.max(1, Math.round(220 * value / top))}px` }),
        h("span", { class: "aiperf-nowrap" }, label)))));
  }
  if (r.error) box.append(h("pre", { class: "aiperf-code" }, r.error));
  if (r.method && r.method.length) {
    const list = h("ul", { class: "aiperf-method" }, r.method.map((m) => h("li", {}, m)));
    box.append(h("div", {}, toggle("how this was measured", list)), list);
  }
  return box;
}

function copyButton(text) {
  const button = h("button", { class: "aiperf-btn aiperf-copy", type: "button" }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch (err) {
      button.textContent = "Copy failed: select the text";
    }
  });
  return button;
}

class Fix {
  constructor(model, key, item) {
    this.model = model;
    this.key = key;
    this.waiting = null;
    const fix = item.fix;
    this.tryButton = h("button", { class: "aiperf-btn aiperf-try", type: "button" }, "Try");
    this.applyButton = h("button", { class: "aiperf-btn aiperf-apply", type: "button", disabled: true }, "Apply");
    this.undoButton = h("button", { class: "aiperf-btn aiperf-undo", type: "button", disabled: true }, "Undo");
    this.tryButton.title = "Run the original and the rewrite in copies of the kernel, and compare";
    this.stopButton = h("button", { class: "aiperf-btn aiperf-stop", type: "button" }, "Stop");
    this.stopButton.style.display = "none";
    this.tryButton.addEventListener("click", () => this.send("try"));
    this.stopButton.addEventListener("click", () => this.send("stop"));
    this.applyButton.addEventListener("click", () => this.send("apply"));
    this.undoButton.addEventListener("click", () => this.send("undo"));
    this.live = h("div", { class: "aiperf-live" });
    this.confirm = null;
    this.confirmLabel = null;
    this.gates = { edited: false, otherApplied: false, restarted: false };
    const rows = [h("div", { class: "aiperf-fixrow" },
      h("span", { class: "aiperf-fixtitle" }, "Fix: " + fix.title, fix.safety === "unsafe" ? h("span", { class: "aiperf-unsafe" }, " unsafe: results may differ") : ""),
      h("span", { class: "aiperf-buttons" }, this.tryButton, this.stopButton, this.applyButton, this.undoButton))];
    if (fix.measure_first) {
      // its gain depends on size: no confirmation replaces a Try that measured it equal and faster
      rows.push(h("div", { class: "aiperf-measure-first" }, "Measure first: " + fix.measure_first +
        ". Apply is enabled once Try shows equal results and a speedup on your data." +
        (fix.evidence ? " (" + fix.evidence + ")" : "")));
    } else if (fix.safety === "unsafe") {
      this.confirm = h("input", { type: "checkbox" });
      this.confirm.addEventListener("change", () => this.send("confirm", this.confirm.checked));
      this.confirmLabel = h("label", { class: "aiperf-confirm" }, this.confirm, " Allow Apply without an equal Try (I accept that results may differ)");
      rows.push(this.confirmLabel);
    }
    this.afterApply = muted(TRY_AFTER_APPLY, "aiperf-after-apply");
    this.afterApply.hidden = true;
    rows.push(this.afterApply);
    this.allowIo = h("input", { type: "checkbox" });
    this.allowIo.addEventListener("change", () => this.send("allow_io", this.allowIo.checked));
    this.allowIoText = h("span", {});
    this.allowIoLabel = h("label", { class: "aiperf-confirm aiperf-allow-io" }, this.allowIo, this.allowIoText);
    this.allowIoLabel.style.display = "none";
    rows.push(this.allowIoLabel, this.live, diffBlock(fix.diff));
    this.node = rows;
  }

  send(what, value) {
    if (this.gates.restarted) {
      this.noAnswer();
      return;
    }
    if (what !== "confirm" && what !== "allow_io" && what !== "stop") {
      for (const b of [this.tryButton, this.applyButton, this.undoButton]) b.disabled = true;
    }
    try {
      this.model.send({ do: what, key: this.key, value });
    } catch (err) {
      this.noAnswer();
      return;
    }
    clearTimeout(this.waiting);
    this.waiting = setTimeout(() => this.noAnswer(), NO_ANSWER_MS);
  }

  noAnswer() {
    clearTimeout(this.waiting);
    const restarted = this.gates.restarted;
    this.live.replaceChildren(h("div", { class: "aiperf-status aiperf-status-error" },
      restarted ? RESTARTED : "The kernel did not answer. If it was restarted or shut down, run the cell again."));
    this.tryButton.disabled = restarted;
  }

  // `gates` come from the page, not the kernel: the cell's text now (edited since it ran, or holding
  // another fix) and a kernel restart, which leaves this panel without a kernel to answer it.
  update(s, gates) {
    if (gates) this.gates = gates;
    const g = this.gates;
    if (g.restarted) {
      for (const b of [this.tryButton, this.applyButton, this.undoButton]) {
        b.disabled = true;
        b.title = RESTARTED;
      }
      if (this.waiting) this.noAnswer();
      return;
    }
    clearTimeout(this.waiting);
    this.waiting = null;
    if (!s) return;
    this.tryButton.disabled = !s.try;
    const blocked = !s.applied && (g.otherApplied ? APPLIED_OTHER : g.edited ? EDITED : "");
    this.applyButton.disabled = !s.apply || !!blocked;
    this.applyButton.title = blocked || "Rewrite this cell in place (its %%aiperf line stays)";
    this.undoButton.disabled = !s.undo;
    this.tryButton.title = s.applied ? TRY_AFTER_APPLY : "Run the original and the rewrite in copies of the kernel, and compare";
    this.afterApply.hidden = !s.applied;
    if (this.confirmLabel) this.confirmLabel.style.display = s.proven ? "none" : "";
    if (this.confirm) this.confirm.checked = !!s.confirmed;
    this.stopButton.style.display = s.stop ? "" : "none";
    this.allowIoLabel.style.display = s.allow_io_offer ? "" : "none";
    this.allowIo.checked = !!s.allow_io;
    this.allowIoText.textContent = " Allow the cell's writes (each version runs " + s.runs + " more times, for real)";
    const parts = [];
    if (s.progress) parts.push(h("div", { class: "aiperf-status aiperf-status-info" }, s.progress));
    if (s.result) parts.push(comparison(s.result));
    if (s.gate) parts.push(h("div", { class: "aiperf-status aiperf-status-info" }, s.gate));
    if (s.status) parts.push(h("div", { class: "aiperf-status aiperf-status-" + s.status[0] }, s.status[1]));
    if (s.fallback) {
      parts.push(h("div", { class: "aiperf-fallback" }, copyButton(s.fallback.text), " ",
        h("span", { class: "aiperf-muted" }, s.fallback.hint)));
    }
    this.live.replaceChildren(...parts);
  }
}

function findingCard(model, data, item) {
  const [link, doc] = codeLink(item.code, data.docs);
  const card = h("div", { class: "aiperf-card", "data-code": item.code },
    h("div", { class: "aiperf-finding" }, h("b", {}, item.n + ". "), link, " ", h("span", { class: "aiperf-muted" }, item.where), " ",
      item.message_runs ? inline(item.message_runs) : item.message),
    doc);
  let fix = null;
  const docInfo = data.docs[item.code];
  const why = docInfo ? blocks(docInfo.blocks, ["Why is this bad?", "Use instead", "Fix safety"]) : [];
  if (item.fix) {
    fix = new Fix(model, String(item.n), item);
    card.append(...fix.node);
  } else if (item.no_fix) {
    card.append(muted("No rewrite: " + item.no_fix));
  }
  if (why.length) {
    const box = h("div", { class: "aiperf-doc" }, why);
    card.append(h("div", {}, toggle("Why", box, "aiperf-why")), box);
  }
  return [card, fix];
}

function section(title, body, open) {
  const node = h("details", { class: "aiperf-section" }, h("summary", {}, title), body);
  node.open = !!open;
  return node;
}

function hotLines(rows, memory) {
  // memory: how the memory column was counted (null when no line's memory was measured)
  const heads = ["line", "code", "", "share", "time"].map((t) => h("th", {}, t));
  if (memory) heads.push(h("th", { title: memory }, "memory"));
  heads.push(h("th", {}, "in"));
  const table = h("table", { class: "aiperf-hotspots" },
    h("tr", {}, heads),
    rows.map((r) => h("tr", {},
      h("td", { class: "aiperf-num" }, String(r.line)), h("td", {}, h("code", { class: "aiperf-hotcode", title: r.code }, r.code)),
      h("td", {}, r.time ? h("span", { class: "aiperf-hotbar", style: `width:${Math.max(1, Math.round(r.bar * 120))}px` }) : ""),
      h("td", { class: "aiperf-num" }, r.share), h("td", { class: "aiperf-num" }, r.time),
      memory ? h("td", { class: "aiperf-num" }, r.memory || "") : null,
      h("td", { class: "aiperf-muted" }, r.callee))));
  return section(`Hot lines (${rows.length})`, memory ? [table, muted(memory)] : table, true);
}

function timeline(t) {
  if (!t.svg) return null;  // a cell too short to plot has no timeline to speak of
  const img = h("img", { class: "aiperf-timeline", alt: "timeline of the cell: " + t.caption });
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(t.svg);
  return section(`Timeline (${t.summary})`, [img, muted(t.caption)], false);
}

function cluster(c) {
  const body = [h("table", { class: "aiperf-cluster" },
    c.facts.map(([k, v]) => h("tr", {}, h("td", { class: "aiperf-muted" }, k),
      h("td", {}, k === "dashboard" && /^https?:\/\//.test(v) ? h("a", { href: v, target: "_blank", rel: "noopener" }, v) : v))))];
  if (c.svg) {
    const img = h("img", { class: "aiperf-timeline aiperf-cluster-busy", alt: "workers busy over the cell" });
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(c.svg);
    body.push(img);
  }
  if (c.functions.length) {
    body.push(h("table", { class: "aiperf-hotspots" },
      h("tr", {}, ["worker function", "time", "share"].map((t) => h("th", {}, t))),
      c.functions.map((f) => h("tr", {}, h("td", {}, h("code", {}, f.name)),
        h("td", { class: "aiperf-num" }, f.time), h("td", { class: "aiperf-num" }, f.share)))));
  }
  if (c.more) body.push(muted(c.more));
  for (const n of c.notes || []) body.push(muted(n));
  return section(`Cluster (${c.summary})`, body, true);
}

function frames(f) {
  if (!f.items.length) return f.small ? muted(f.small + ".") : null;
  const body = f.items.map((fr) => {
    const table = h("table", { class: "aiperf-columns" },
      h("tr", {}, ["column", "dtype", "memory", "suggestion", "saving", "why"].map((t) => h("th", {}, t))),
      fr.columns.map((c) => h("tr", {}, [c.name, c.dtype, c.memory, c.suggestion, c.saving, c.why].map((v, i) =>
        h("td", { class: i === 2 || i === 4 ? "aiperf-num" : "" }, v)))));
    return h("div", { class: "aiperf-frame" }, h("div", {}, fr.line,
      fr.finding ? h("span", { class: "aiperf-muted" }, ` — its fix is finding ${fr.finding}`) : ""),
      table, fr.notes.map((n) => muted(n)));
  });
  if (f.small) body.push(muted(f.small + "."));
  return section(`DataFrames (${f.items.length})`, body, false);
}

// The notebook extension tells a panel about the cell it sits in: asked with a DOM event from the
// panel's own node, it answers in the event's detail with the cell's text now and `watch(callback)`,
// which reports each change of that text. Without the extension (or with an older one) nothing answers.
function watchCell(node, cellId, onText) {
  let stop = null;
  let timer = null;
  let tries = 0;
  const ask = () => {
    if (!node.isConnected) {  // the output area attaches the view after it is drawn
      if (++tries < 200) timer = setTimeout(ask, 50);
      return;
    }
    const detail = {};
    node.dispatchEvent(new CustomEvent("aiperf-cell-source", { bubbles: true, detail }));
    if (typeof detail.source !== "string") return;
    // a report shown under another cell (`display(report)`) edits the cell it measured, not this one
    if (cellId && detail.cellId && detail.cellId !== cellId) return;
    onText(detail.source);
    if (typeof detail.watch === "function") stop = detail.watch(onText);
  };
  ask();
  return () => {
    clearTimeout(timer);
    if (stop) stop();
  };
}

function render({ model, el }) {
  const data = { docs: {}, ...(model.get("data") || {}) };
  const root = h("div", { class: "aiperf-panel" });
  const gates = { edited: false, otherApplied: false, restarted: false };
  const editedLine = muted(EDITED, "aiperf-edited");
  editedLine.hidden = true;
  const stale = h("div", { class: "aiperf-stale", hidden: true });
  const rerun = h("button", { class: "aiperf-btn aiperf-rerun", type: "button" }, "Re-run");
  const staleText = h("span", {});
  rerun.addEventListener("click", () => {
    rerun.disabled = true;
    try { model.send({ do: "rerun" }); } catch (err) { staleText.textContent = "The kernel did not answer: run the cell again."; }
  });
  stale.append(staleText, " ", rerun);
  const fixes = {};
  const cards = {};
  const findings = data.findings || [];
  const built = findings.map((item) => {
    const [card, fix] = findingCard(model, data, item);
    if (fix) fixes[fix.key] = fix;
    if (!cards[item.code]) cards[item.code] = card;
    return card;
  });
  root.append(stale, header(data), ...summary(data, cards));
  if (built.length) {
    root.append(h("div", { class: "aiperf-h" }, `Findings (${built.length})`), editedLine, ...built);
    if (data.more_findings) root.append(muted(data.more_findings));
    if (data.hidden_findings) root.append(muted("(" + data.hidden_findings + ")"));
  } else {
    root.append(muted("No known performance traps in this cell."));
  }
  if (data.hotspots && data.hotspots.length) root.append(hotLines(data.hotspots, data.memory_heading));
  if (data.cluster) root.append(cluster(data.cluster));
  const tl = data.timeline && timeline(data.timeline);
  if (tl) root.append(tl);
  const fr = data.frames && frames(data.frames);
  if (fr) root.append(fr);
  if (data.torch && data.torch.length) root.append(section("torch profile", h("ul", {}, data.torch.map((t) => h("li", {}, t))), false));
  if (data.gpus) root.append(muted("GPUs: " + data.gpus));
  if (data.notes && data.notes.length) {
    root.append(section(`Notes (${data.notes.length})`, h("ul", { class: "aiperf-notes" }, data.notes.map((n) => h("li", {}, n))), false));
  }
  if (data.muted) root.append(muted(data.muted, "aiperf-gpu-absent"));

  let cellText = null;
  const update = () => {
    const ui = model.get("ui") || {};
    const states = ui.fixes || {};
    const applied = Object.values(states).some((f) => f && f.applied);
    gates.edited = cellText !== null && typeof data.ran === "string" && !sameText(cellText, data.ran);
    gates.otherApplied = applied;
    for (const [key, fix] of Object.entries(fixes)) fix.update(states[key], { ...gates });
    editedLine.hidden = !gates.edited || applied || gates.restarted;
    const s = gates.restarted ? { text: RESTARTED, kind: "error" } : ui.stale;
    stale.hidden = !s;
    if (s) {
      staleText.textContent = s.text;
      stale.className = "aiperf-stale aiperf-stale-" + s.kind;
      rerun.disabled = s.kind === "ok" || gates.restarted;
      rerun.style.display = gates.restarted ? "none" : "";
    }
  };
  update();
  model.on("change:ui", update);
  // ipywidgets marks every model of a kernel that restarts as no longer live: its comm is gone,
  // so no click can reach the kernel any more.
  const onRestart = () => {
    gates.restarted = true;
    update();
  };
  model.on("comm_live_update", onRestart);
  const stopWatching = watchCell(root, data.cell_id, (text) => {
    cellText = text;
    update();
  });
  el.append(root);
  return () => {
    model.off("change:ui", update);
    model.off("comm_live_update", onRestart);
    stopWatching();
  };
}

export default { render };
