"use strict";
// Replays a sudoku-cp trace: events[0] is the start (shape, givens), the last is the end or the
// truncation, the ones between are the steps (place, remove, backtrack, solution).
(function () {
  const SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const WORDS = __WORDS__; // the page's sentences in its language, {name} for a value
  const events = JSON.parse(document.getElementById("trace").textContent);
  const head = events[0];
  const tail = events[events.length - 1];
  const steps = events.filter((e) => "step" in e);
  const n = head.side;
  const [br, bc] = head.box;
  const grid = head.givens.slice();
  const kind = head.givens.map((v) => (v ? "given" : ""));
  const units = cellUnits(n, br, bc);
  const $ = (id) => document.getElementById(id);
  let at = 0; // steps applied
  let playing = false;
  let carry = 0; // fractional steps owed to the player
  let lastFrame = 0;

  annotate();
  const cells = buildGrid();
  const plot = buildPlot();
  wire();
  render();

  function say(key, values) {
    return WORDS[key].replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  }

  function cellName(cell) {
    return say("cell", { row: Math.floor(cell / n) + 1, column: cell % n + 1 });
  }

  function cellUnits(side, rows, cols) {
    // [row unit, column unit, box unit] of every cell, as in sudokucp.puzzle.geometry
    const out = [];
    for (let cell = 0; cell < side * side; cell++) {
      const r = Math.floor(cell / side);
      const c = cell % side;
      const box = Math.floor(r / rows) * rows + Math.floor(c / cols);
      out.push([r, side + c, 2 * side + box]);
    }
    return out;
  }

  function annotate() {
    // Each step learns what going back over it needs: the kind of a removed digit, the depth
    // after it, the solutions found so far.
    const kinds = kind.slice();
    let solutions = 0;
    for (const e of steps) {
      if (e.event === "place") kinds[e.cell] = e.guess ? "guess" : "forced";
      if (e.event === "remove") e.kind = kinds[e.cell];
      if (e.event === "solution") solutions += 1;
      e.level = e.event === "remove" ? e.depth - 1 : e.depth;
      e.solutions = solutions;
    }
  }

  function buildGrid() {
    const box = $("grid");
    const size = n <= 9 ? 46 : n <= 16 ? 34 : 27;
    box.style.setProperty("--n", n);
    box.style.setProperty("--bc", bc);
    document.documentElement.style.setProperty("--cell", size + "px");
    const out = [];
    for (let cell = 0; cell < n * n; cell++) {
      const div = document.createElement("div");
      const r = Math.floor(cell / n);
      const c = cell % n;
      div.className = "cell";
      if ((c + 1) % bc === 0 && c + 1 < n) div.classList.add("box-right");
      if ((r + 1) % br === 0 && r + 1 < n) div.classList.add("box-bottom");
      div.dataset.cell = cell;
      div.setAttribute("role", "gridcell");
      div.title = cellName(cell);
      const digit = document.createElement("span");
      digit.className = "digit";
      const cands = document.createElement("div");
      cands.className = "cands";
      const marks = [];
      for (let v = 1; v <= n; v++) {
        const mark = document.createElement("span");
        cands.appendChild(mark);
        marks.push(mark);
      }
      div.append(cands, digit);
      box.appendChild(div);
      out.push({ div, digit, marks });
    }
    return out;
  }

  function apply(e) {
    if (e.event === "place") {
      grid[e.cell] = e.digit;
      kind[e.cell] = e.guess ? "guess" : "forced";
    } else if (e.event === "remove") {
      grid[e.cell] = 0;
    }
  }

  function undo(e) {
    if (e.event === "place") {
      grid[e.cell] = 0;
    } else if (e.event === "remove") {
      grid[e.cell] = e.digit;
      kind[e.cell] = e.kind;
    }
  }

  function goTo(target) {
    const to = Math.max(0, Math.min(steps.length, target));
    while (at < to) apply(steps[at++]);
    while (at > to) undo(steps[--at]);
    render();
  }

  function usedMasks() {
    const used = new Array(3 * n).fill(0);
    grid.forEach((v, cell) => {
      if (v) for (const u of units[cell]) used[u] |= 1 << v;
    });
    return used;
  }

  function render() {
    const e = at ? steps[at - 1] : null;
    const used = usedMasks();
    cells.forEach((view, cell) => {
      const v = grid[cell];
      const [a, b, c] = units[cell];
      const taken = used[a] | used[b] | used[c];
      view.digit.textContent = v ? SYMBOLS[v] : "";
      view.div.dataset.digit = v;
      view.div.classList.remove("given", "guess", "forced", "filled", "current", "failed");
      if (v) view.div.classList.add("filled", kind[cell]);
      else view.marks.forEach((mark, i) => { mark.textContent = taken >> (i + 1) & 1 ? "" : SYMBOLS[i + 1]; });
      if (e && e.cell === cell) view.div.classList.add(e.event === "backtrack" ? "failed" : "current");
    });
    $("grid").classList.toggle("solved", !!e && e.event === "solution");
    showCounts(e);
    $("event").textContent = describe(e);
    $("scrub").value = at;
    $("play").textContent = say(playing ? "pause" : "play", {});
    document.body.dataset.at = at;
    drawPlot();
  }

  function showCounts(e) {
    const zero = { nodes: 0, guesses: 0, backtracks: 0, level: 0, solutions: 0 };
    const c = e || zero;
    $("c-step").textContent = at + " / " + steps.length;
    $("c-depth").textContent = c.level;
    $("c-nodes").textContent = c.nodes;
    $("c-guesses").textContent = c.guesses;
    $("c-backtracks").textContent = c.backtracks;
    $("c-solutions").textContent = c.solutions;
  }

  function describe(e) {
    if (!e) {
      const givens = head.givens.filter((v) => v).length;
      return say("start", { givens: givens, empty: n * n - givens });
    }
    const where = "cell" in e ? cellName(e.cell) : "";
    const values = { cell: where, digit: SYMBOLS[e.digit || 0], depth: e.depth, count: e.solutions };
    const text = {
      place: () => say(e.guess ? "guess" : "deduced", values),
      remove: () => say("remove", values),
      backtrack: () => say(e.at ? "backtrack_at" : "backtrack",
                           Object.assign(values, { digit: SYMBOLS[grid[e.cell] || 0] })),
      solution: () => say("solution", values),
    }[e.event]();
    const end = at === steps.length ? ending() : "";
    return text + end;
  }

  function ending() {
    if (tail.event === "truncated") return " -- " + say("cut", { steps: tail.max_steps });
    if (tail.event === "end") {
      return " -- " + say("end", { status: tail.status, count: tail.solutions });
    }
    return "";
  }

  function buildPlot() {
    // The depth after each step, drawn once (min..max per pixel column) on a back canvas.
    const canvas = $("plot");
    const back = document.createElement("canvas");
    back.width = canvas.width;
    back.height = canvas.height;
    const g = back.getContext("2d");
    const w = back.width;
    const h = back.height;
    const top = steps.reduce((most, e) => Math.max(most, e.level), 1);
    const y = (d) => h - 6 - (h - 12) * d / top;
    const x = (i) => (steps.length ? i * (w - 1) / steps.length : 0);
    g.strokeStyle = "#e3e6ec";
    g.fillStyle = "#7b8497";
    g.font = "10px sans-serif";
    for (const d of [0, top]) {
      g.beginPath(); g.moveTo(0, y(d)); g.lineTo(w, y(d)); g.stroke();
      g.fillText(say("depth", { depth: d }), 4, d ? y(d) + 11 : y(d) - 3);
    }
    g.strokeStyle = "#1f5fd1";
    g.beginPath();
    g.moveTo(0, y(0));
    steps.forEach((e, i) => g.lineTo(x(i + 1), y(e.level)));
    g.stroke();
    g.strokeStyle = "#12a05c";
    steps.forEach((e, i) => {
      if (e.event === "solution") { g.beginPath(); g.moveTo(x(i + 1), 0); g.lineTo(x(i + 1), h); g.stroke(); }
    });
    canvas.addEventListener("click", (ev) => {
      const rect = canvas.getBoundingClientRect();
      goTo(Math.round((ev.clientX - rect.left) / rect.width * steps.length));
    });
    return { canvas, back, x };
  }

  function drawPlot() {
    const g = plot.canvas.getContext("2d");
    g.clearRect(0, 0, plot.canvas.width, plot.canvas.height);
    g.drawImage(plot.back, 0, 0);
    g.strokeStyle = "#d99a00";
    g.beginPath();
    g.moveTo(plot.x(at), 0);
    g.lineTo(plot.x(at), plot.canvas.height);
    g.stroke();
  }

  function speed() {
    // steps per second: 1 to 2000 on a logarithmic slider
    return Math.round(Math.pow(2000, $("speed").value / 100));
  }

  function frame(now) {
    if (!playing) return;
    carry += speed() * Math.min(0.25, (now - lastFrame) / 1000);
    lastFrame = now;
    const advance = Math.floor(carry);
    carry -= advance;
    if (advance) goTo(at + advance);
    if (at >= steps.length) { playing = false; render(); return; }
    requestAnimationFrame(frame);
  }

  function toggle() {
    playing = !playing && at < steps.length;
    if (playing) {
      carry = 1;
      lastFrame = performance.now();
      requestAnimationFrame(frame);
    }
    render();
  }

  function wire() {
    document.body.dataset.total = steps.length;
    $("summary").textContent = say("summary", {
      backend: head.backend, puzzle: head.puzzle || say("a grid", {}), side: n, rows: br, cols: bc,
      steps: steps.length }) + ending().replace(" -- ", ", ");
    $("scrub").max = steps.length;
    $("scrub").addEventListener("input", (ev) => goTo(Number(ev.target.value)));
    $("first").addEventListener("click", () => goTo(0));
    $("back").addEventListener("click", () => goTo(at - 1));
    $("step").addEventListener("click", () => goTo(at + 1));
    $("last").addEventListener("click", () => goTo(steps.length));
    $("play").addEventListener("click", toggle);
    const showSpeed = () => { $("speed-out").textContent = say("speed", { rate: speed() }); };
    $("speed").addEventListener("input", showSpeed);
    showSpeed();
    document.addEventListener("keydown", (ev) => {
      const keys = { ArrowRight: () => goTo(at + 1), ArrowLeft: () => goTo(at - 1), Home: () => goTo(0),
                     End: () => goTo(steps.length), " ": toggle };
      if (keys[ev.key] && ev.target.tagName !== "INPUT") { ev.preventDefault(); keys[ev.key](); }
    });
  }
})();
