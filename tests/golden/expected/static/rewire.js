/* Rewire: instant sort, filter and search on top of pages that work without JavaScript.
   Element ids, classes and data attributes used here are listed in templates/README.md. */
(function () {
  "use strict";

  function text(el, value) { if (el) { el.textContent = value; } }

  /* Sorting: a header link goes to a pre-sorted page without JS; with JS it sorts in place. */
  function sortTable(table, th, direction) {
    var col = th.getAttribute("data-col");
    var numeric = th.getAttribute("data-type") === "number";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (row, index) {
      var cell = row.querySelector('[data-col="' + col + '"]');
      var raw = cell ? cell.getAttribute("data-sort-value") : null;
      var key = null;
      if (raw !== null && raw !== "") { key = numeric ? parseFloat(raw) : raw.toLowerCase(); }
      return { row: row, key: key, index: index };
    });
    keyed.sort(function (a, b) {
      if (a.key === null && b.key === null) { return a.index - b.index; }
      if (a.key === null) { return 1; }
      if (b.key === null) { return -1; }
      var c = a.key < b.key ? -1 : (a.key > b.key ? 1 : 0);
      if (direction === "descending") { c = -c; }
      return c === 0 ? a.index - b.index : c;
    });
    keyed.forEach(function (k) { body.appendChild(k.row); });
    Array.prototype.forEach.call(table.querySelectorAll("thead th[data-col]"), function (h) {
      if (h === th) { h.setAttribute("aria-sort", direction); } else { h.removeAttribute("aria-sort"); }
    });
    var note = direction;
    if (numeric) {
      var dir = th.getAttribute("data-direction");
      var bestFirst = (dir === "lower") === (direction === "ascending");
      note = dir + " is better" + (bestFirst ? "" : "; best last");
    }
    text(document.querySelector('[data-sort-status-for="' + table.id + '"]'),
      "Sorted by " + th.getAttribute("data-label") + " (" + note + ").");
  }

  function initSort(table) {
    Array.prototype.forEach.call(table.querySelectorAll("thead th[data-col]"), function (th) {
      var link = th.querySelector(".sort-link");
      if (!link) { return; }
      link.addEventListener("click", function (event) {
        event.preventDefault();
        var current = th.getAttribute("aria-sort");
        var direction;
        if (current === "ascending") { direction = "descending"; }
        else if (current === "descending") { direction = "ascending"; }
        else if (th.getAttribute("data-type") === "number") {
          direction = th.getAttribute("data-direction") === "higher" ? "descending" : "ascending";
        } else { direction = "ascending"; }
        sortTable(table, th, direction);
      });
    });
  }

  /* Filtering: the form is hidden without JS (all rows stay visible, and each facet value
     links to a pre-rendered list); with JS it hides non-matching rows at once. */
  function initFilter(form) {
    var targets = (form.getAttribute("data-filter-target") || "").split(" ")
      .map(function (id) { return document.getElementById(id); })
      .filter(function (t) { return t !== null; });
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-facet]"));
    var status = document.querySelector('[data-filter-status-for="' + form.id + '"]');
    var count = document.querySelector('[data-filter-count-for="' + form.id + '"]');
    /* Evaluations are counted in the tables of result rows (data-filter-count). A protocol
       page with more than 60 published results, or with Rewire measurements only, has none
       with rows: there the count is of the comparison table rows shown (a row is one tested
       configuration or setup, which may hold several evaluations), and says so. */
    var counted = targets.some(function (t) {
      return t.hasAttribute("data-filter-count") && t.querySelector("tbody tr") !== null;
    });
    function apply() {
      var chosen = selects.filter(function (s) { return s.value !== ""; });
      var shown = 0;
      targets.forEach(function (table) {
        var counts = counted ? table.hasAttribute("data-filter-count") : true;
        Array.prototype.forEach.call(table.querySelectorAll("tbody tr"), function (row) {
          var ok = chosen.every(function (s) {
            var values = (row.getAttribute("data-facet-" + s.getAttribute("data-facet")) || "").split(" ");
            return values.indexOf(s.value) !== -1;
          });
          row.hidden = !ok;
          if (ok && counts) { shown += 1; }
        });
      });
      if (chosen.length === 0) { text(status, "Applied filters: All linked evaluations"); }
      else {
        text(status, "Applied filters: " + chosen.map(function (s) {
          var option = s.options[s.selectedIndex];
          return s.getAttribute("data-facet-label") + ": " + (option.getAttribute("data-label") || option.text);
        }).join("; "));
      }
      text(count, shown + (counted ? " matching evaluation" : " matching table row") + (shown === 1 ? "" : "s"));
    }
    selects.forEach(function (s) { s.addEventListener("change", apply); });
    form.addEventListener("reset", function () { window.setTimeout(apply, 0); });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    form.hidden = false;
    if (!counted) { apply(); }  /* the page's own count is of result rows it does not list */
  }

  /* Search: the page lists every record (or its share of them, in parts); typing hides the
     ones that do not match. A list with data-index searches the whole index (JSON) instead,
     fetched on the first search; if it cannot be fetched, the listed part is searched. */
  function initSearch(input) {
    var list = document.getElementById("search-results");
    var count = document.getElementById("search-count");
    if (!list) { return; }
    var items = Array.prototype.slice.call(list.querySelectorAll("li[data-terms]"));
    var source = list.getAttribute("data-index");
    var root = list.getAttribute("data-root") || "";
    var all = null, loading = false, replaced = false, limit = 500;
    var original = count ? count.textContent : "";
    function restore() {
      if (!replaced) { return; }
      list.textContent = "";
      items.forEach(function (li) { list.appendChild(li); });
      replaced = false;
    }
    function showAll(terms) {
      var found = all.filter(function (e) {
        return terms.every(function (t) { return e.hay.indexOf(t) !== -1; });
      });
      list.textContent = "";
      found.slice(0, limit).forEach(function (e) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = root + e.path;
        a.textContent = e.title;
        var code = document.createElement("code");
        code.textContent = e.id;
        li.appendChild(a);
        li.appendChild(document.createTextNode(" "));
        li.appendChild(code);
        list.appendChild(li);
      });
      replaced = true;
      text(count, found.length + " of " + all.length + " records match" +
        (found.length > limit ? "; the first " + limit + " are listed" : ""));
    }
    function apply() {
      var terms = input.value.toLowerCase().split(/\s+/).filter(function (t) { return t !== ""; });
      if (source && terms.length) {
        if (all) { showAll(terms); return; }
        if (!loading) {
          loading = true;
          fetch(source).then(function (r) { return r.json(); }).then(function (data) {
            all = data.map(function (e) {
              e.hay = [e.title, e.id].concat(e.models || []).join(" ").toLowerCase();
              return e;
            });
            apply();
          }).catch(function () { source = null; apply(); });
        }
        return;
      }
      restore();
      var shown = 0;
      items.forEach(function (li) {
        var hay = li.getAttribute("data-terms");
        var ok = terms.every(function (t) { return hay.indexOf(t) !== -1; });
        li.hidden = !ok;
        if (ok) { shown += 1; }
      });
      text(count, terms.length ? shown + " of " + items.length + " records match" : original);
    }
    var params = new URLSearchParams(window.location.search);
    if (params.get("q")) { input.value = params.get("q"); }
    input.addEventListener("input", apply);
    var form = input.form;
    if (form) { form.addEventListener("submit", function (event) { event.preventDefault(); apply(); }); }
    apply();
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table[data-sortable]"), initSort);
    Array.prototype.forEach.call(document.querySelectorAll("form.filters[data-filter-target]"), initFilter);
    var search = document.getElementById("search-input");
    if (search) { initSearch(search); }
    window.addEventListener("beforeprint", function () {
      Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
    });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
}());
