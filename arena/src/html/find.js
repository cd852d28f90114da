// With many bots: the box above the standings keeps the rows of the
// standings table and the records whose bot's name holds what is typed.
(() => {
  const box = document.getElementById("find-bot");
  if (!box) return;
  const rows = Array.from(document.querySelectorAll("table.standings tbody tr"));
  const records = Array.from(document.querySelectorAll("#records details.record"));
  const nameOf = (el, sel) => (el.querySelector(sel)?.textContent ?? "").toLowerCase();
  box.addEventListener("input", () => {
    const q = box.value.trim().toLowerCase();
    for (const r of rows) r.hidden = q !== "" && !nameOf(r, "td.name").includes(q);
    for (const r of records) r.hidden = q !== "" && !nameOf(r, "summary .bot").includes(q);
  });
})();
