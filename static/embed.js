// One-line embed for lesson pages. A lesson author writes, anywhere on the page,
//   <div data-mahjong="rules=hong-kong&hand=123m456m789m234p55s" data-view="card"></div>
// plus once <script src="https://calculator.example.org/static/embed.js" async></script>.
// Each such element gets an iframe of the calculator (data-view: card, calculator or quiz),
// loaded lazily, named for screen readers (data-title overrides the name), and fitted to the
// height its page reports by postMessage. Messages from any other origin are ignored.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) {
    return;
  }
  var origin = new URL(script.src).origin;
  var VIEWS = {
    card: { path: "/card", title: "Mahjong hand card", height: 400 },
    calculator: { path: "/embed", title: "Mahjong scoring calculator", height: 600 },
    quiz: { path: "/embed/practice", title: "Mahjong quiz: count the fan", height: 500 }
  };

  function frameName(view, query) {
    var hand = new URLSearchParams(query).get("hand");
    return view.title + (hand ? ": " + hand : "");
  }

  function upgrade(holder) {
    if (holder.getAttribute("data-mahjong-ready")) {
      return;
    }
    var view = VIEWS[holder.getAttribute("data-view") || "card"] || VIEWS.card;
    var query = (holder.getAttribute("data-mahjong") || "").replace(/^\?/, "");
    var frame = document.createElement("iframe");
    frame.src = origin + view.path + (query ? "?" + query : "");
    frame.title = holder.getAttribute("data-title") || frameName(view, query);
    frame.setAttribute("loading", "lazy");
    frame.height = String(view.height);
    frame.style.width = "100%";
    frame.style.border = "0";
    frame.style.display = "block";
    holder.appendChild(frame);
    holder.setAttribute("data-mahjong-ready", "yes");
  }

  function upgradeAll() {
    var holders = document.querySelectorAll("[data-mahjong]");
    for (var i = 0; i < holders.length; i += 1) {
      upgrade(holders[i]);
    }
  }

  // Fit the frame that sent the message: any frame of this calculator on the page, also one
  // pasted by hand or from an oEmbed answer.
  window.addEventListener("message", function (event) {
    if (event.origin !== origin) {
      return;
    }
    var data = event.data || {};
    if (data.type !== "mahjong-calculator:height" || typeof data.height !== "number") {
      return;
    }
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i += 1) {
      if (frames[i].contentWindow === event.source) {
        frames[i].height = String(Math.max(0, Math.ceil(data.height)));
      }
    }
  });

  upgradeAll();
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", upgradeAll);
  }
})();
