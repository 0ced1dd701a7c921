// Progressive enhancement only: every control works without this file.
(function () {
  "use strict";

  // Changing the rules re-opens the page under the new ruleset at once.
  var rulesForm = document.getElementById("rules-form");
  if (rulesForm) {
    var select = rulesForm.querySelector("select[name=rules]");
    if (select) {
      select.addEventListener("change", function () { rulesForm.submit(); });
    }
  }

  // After a tile was added or removed (the page came back at #add-<tile> or #remove-<place>),
  // keep the keyboard there.
  if (/^#(add-[0-9a-z]+|remove-[0-9]+)$/.test(window.location.hash)) {
    var picked = document.getElementById(window.location.hash.slice(1));
    if (picked) {
      picked.focus();
    }
  }

  // Inside an iframe: tell the parent page our height so it can fit the frame. The height of
  // the page's content, not scrollHeight: that is never less than the frame, so a frame made
  // tall once could never shrink to a shorter page.
  if (window.parent !== window) {
    var lastHeight = 0;
    var report = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height !== lastHeight) {
        lastHeight = height;
        window.parent.postMessage({ type: "mahjong-calculator:height", height: height }, "*");
      }
    };
    window.addEventListener("load", report);
    window.addEventListener("resize", report);
    if (window.ResizeObserver) {
      new ResizeObserver(report).observe(document.documentElement);
    }
    report();
  }
})();
