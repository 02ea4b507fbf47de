// Sortable, filterable tables, for a page opened from the disk.
"use strict";

function cellKey(cell) {
  // A cell's sort key: its number (data-sort, else its text), or its text in lower case.
  const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
  const num = raw === "" ? NaN : Number(raw);
  return Number.isNaN(num) ? { text: raw.toLowerCase() } : { num: num };
}

function compareKeys(a, b) {
  // Numbers first (ascending), then words (alphabetical), then empty cells.
  if (a.num !== undefined && b.num !== undefined) return a.num - b.num;
  if (a.num !== undefined) return -1;
  if (b.num !== undefined) return 1;
  if (a.text === "" || b.text === "") return (a.text === "") - (b.text === "");
  return a.text.localeCompare(b.text, undefined, { numeric: true });
}

function sortBy(table, header) {
  const column = Array.from(header.parentNode.children).indexOf(header);
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  for (const th of table.tHead.rows[0].cells) th.removeAttribute("aria-sort");
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows).map((row, index) => ({ row, index, key: cellKey(row.cells[column]) }));
  rows.sort((x, y) => (ascending ? 1 : -1) * compareKeys(x.key, y.key) || x.index - y.index);
  for (const item of rows) body.appendChild(item.row);
}

function applyFilter(table, input, counter) {
  // Keep the rows holding every word typed (any case); say how many are shown.
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const row of table.tBodies[0].rows) {
    const text = row.textContent.toLowerCase();
    const keep = words.every((word) => text.includes(word));
    row.hidden = !keep;
    shown += keep;
  }
  counter.textContent = shown + " of " + table.tBodies[0].rows.length + " rows";
}

function setUpTable(table) {
  for (const th of table.tHead.rows[0].cells) {
    th.tabIndex = 0;
    th.title = "sort by this column";
    th.addEventListener("click", () => sortBy(table, th));
    th.addEventListener("keydown", (e) => { if (e.key === "Enter") sortBy(table, th); });
  }
  const input = document.querySelector('input[data-filter="' + table.id + '"]');
  const counter = document.querySelector('[data-count="' + table.id + '"]');
  if (input && counter) {
    input.addEventListener("input", () => applyFilter(table, input, counter));
    applyFilter(table, input, counter);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.data").forEach(setUpTable);
});
