// The game sheet in this browser's storage: a phone keeps its sheet across a reload.
// Progressive enhancement only: every link and form of the sheet works without this file.
(function () {
  "use strict";
  var KEY = "mahjong-calculator:sheet";
  var storage = null;
  try { storage = window.localStorage; } catch (e) { storage = null; }   // private modes refuse
  if (!storage) { return; }

  var state = document.getElementById("sheet-state");
  if (state) {
    var search = window.location.search;
    if (!search && storage.getItem(KEY)) {
      // the bare address: bring back the sheet kept in this browser
      window.location.replace("/sheet?" + storage.getItem(KEY));
      return;
    }
    var link = state.getAttribute("data-link") || "";
    if (link.indexOf("?") >= 0 && state.getAttribute("data-valid") === "yes" && !/[?&]new=1/.test(search)) {
      storage.setItem(KEY, link.slice(link.indexOf("?") + 1));
    }
    var printButton = document.getElementById("print-button");
    if (printButton && window.print) {
      printButton.hidden = false;
      printButton.addEventListener("click", function () { window.print(); });
    }
  }

  // "Add to the sheet" on a page opened without a sheet: add to the one kept here.
  var add = document.getElementById("sheet-add");
  var kept = storage.getItem(KEY);
  if (add && !add.getAttribute("data-carried") && kept) {
    var target = new URL(add.href, window.location.href);
    var params = new URLSearchParams(kept);
    params.set("add", target.searchParams.get("add") || "");
    add.href = "/sheet?" + params.toString();
  }
})();
