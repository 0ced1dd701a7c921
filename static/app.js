// Progressive enhancement only: every control works without this file.

// How this page is framed, for the parts below. A lesson page frames it with embed.js (which
// listens for "mahjong-calculator:height"), or WordPress frames an oEmbed answer: it gives
// the frame a secret (`#?secret=…`), sandboxes it with `allow-scripts` only (an opaque origin,
// no form submission, no new tabs) and fits it to the heights the frame posts with the secret
// (wp-embed.js: "height", "link", and "ready" from the host). There, GET forms and picker
// buttons navigate by script, a link that would leave the frame asks the host to open it, and
// every in-frame address carries the secret (also kept in window.name, since a server redirect
// replaces the fragment). No storage, no cookies in any embedded view.
var mahjongFrame = (function () {
  "use strict";
  var framed = window.top !== window;
  var embedded = framed || document.body.classList.contains("embed");
  var SECRET = /(?:^#|[?&#])secret=([A-Za-z0-9]{1,64})(?:&|$)/;
  var NAME = "mahjong-secret:";
  var secret = "";
  if (framed) {
    var given = SECRET.exec(window.location.hash);
    if (given) {
      secret = given[1];
      window.name = NAME + secret;
    } else if (window.name.indexOf(NAME) === 0 && /^[A-Za-z0-9]+$/.test(window.name.slice(NAME.length))) {
      secret = window.name.slice(NAME.length);
    }
  }
  // sandboxed without allow-same-origin (an opaque origin), or WordPress's frame
  var scripted = framed && (secret !== "" || window.origin === "null");
  var tell = function (message, value) {
    window.parent.postMessage({ secret: secret, message: message, value: value }, "*");
  };
  var withSecret = function (url) {
    var to = new URL(url, window.location.href);
    if (secret) { to.hash = "?secret=" + secret; }
    return to.href;
  };
  var go = function (url) { window.location.href = withSecret(url); };
  // A GET form sent by script, as the browser would send it; a POST form cannot be sent
  // from here: its page opens in the calculator instead.
  var submit = function (form, submitter) {
    if ((form.getAttribute("method") || "get").toLowerCase() !== "get") {
      if (secret) { tell("link", window.location.href.split("#")[0]); }
      return;
    }
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, key) {
      if (typeof value === "string") { query.append(key, value); }
    });
    if (submitter && submitter.name) { query.append(submitter.name, submitter.value); }
    var action = new URL((submitter && submitter.getAttribute("formaction")) ||
                         form.getAttribute("action") || window.location.href, window.location.href);
    action.search = query.toString();
    go(action.href);
  };

  if (framed) {
    // Our height: the height of the page's content, not scrollHeight (never less than the
    // frame, so a frame made tall once could never shrink to a shorter page).
    var lastHeight = 0;
    var report = function (again) {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === lastHeight && again !== true) { return; }
      lastHeight = height;
      window.parent.postMessage({ type: "mahjong-calculator:height", height: height }, "*");
      if (secret) { tell("height", height); }
    };
    window.addEventListener("load", report);
    window.addEventListener("resize", report);
    if (window.ResizeObserver) {
      new ResizeObserver(report).observe(document.documentElement);
    }
    window.addEventListener("message", function (event) {
      var data = event.data || {};
      if (event.source !== window.parent) { return; }
      // embed.js, arriving after this frame loaded, asks again; WordPress's host says "ready"
      if (data.type === "mahjong-calculator:height?" ||
          (secret && data.secret === secret && data.message === "ready")) {
        report(true);
      }
    });
    report();
  }

  if (scripted) {
    document.addEventListener("click", function (event) {
      if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey ||
          event.shiftKey || event.altKey || !event.target.closest) { return; }
      var button = event.target.closest("button, input[type=submit], input[type=image]");
      if (button && button.form && button.type === "submit") {
        event.preventDefault();
        submit(button.form, button);
        return;
      }
      var link = event.target.closest("a[href]");
      if (!link || !secret) { return; }
      var to = new URL(link.href, window.location.href);
      if (!/^https?:$/.test(to.protocol)) { return; }
      var target = (link.getAttribute("target") || "").toLowerCase();
      if (target === "_blank" || target === "_top" || target === "_parent" ||
          to.host !== window.location.host) {
        event.preventDefault();   // no new tab in the sandbox: the host opens it
        tell("link", to.href);
      } else if (to.href.split("#")[0] !== window.location.href.split("#")[0]) {
        event.preventDefault();
        go(to.href);
      }
    });
  }
  return { framed: framed, embedded: embedded, scripted: scripted, submit: submit };
})();

(function () {
  "use strict";

  // Changing the rules re-opens the page under the new ruleset at once.
  // (listened for on the document: the picker below replaces the page's <main>)
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select.name === "rules" && select.form && select.form.id === "rules-form") {
      if (mahjongFrame.scripted) { mahjongFrame.submit(select.form); } else { select.form.submit(); }
    }
  });

  // After a tile was added or removed (the page came back at #add-<tile> or #remove-<place>),
  // keep the keyboard there.
  if (/^#(add-[0-9a-z]+|remove-[0-9]+)$/.test(window.location.hash)) {
    var picked = document.getElementById(window.location.hash.slice(1));
    if (picked) {
      picked.focus();
    }
  }

  // The tile picker without a page load: a picker button's GET is fetched (the server applies
  // the tap and renders the page, so there is one engine), the new <main> replaces the old one
  // and the address follows: history.pushState per tap, so the permalink stays right and the
  // back button steps back through the hand (popstate fetches that address and swaps it in the
  // same way). Without this the same buttons submit the form and the page reloads. No storage,
  // no cookies.
  var PICKER = /^(add|remove|make|unmeld|clear|undraft|start|undo)$/;
  var busy = false;
  var pending = [];   // taps made while the last one was on its way, replayed in order
  var withoutHash = function (url) { return url.split("#")[0]; };
  var shown = withoutHash(window.location.href);   // the address the page shows now
  var swapIn = function (url, push, focusId, removedCode) {
    var main = document.getElementById("main");
    return fetch(url, { credentials: "omit", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        return response.text().then(function (text) { return { url: response.url, text: text }; });
      })
      .then(function (got) {
        var next = new DOMParser().parseFromString(got.text, "text/html");
        var fresh = next.getElementById("main");
        if (!fresh || !main) { window.location.assign(got.url); return; }
        var keep = window.scrollY;
        main.innerHTML = fresh.innerHTML;
        document.title = next.title;
        if (push) { history.pushState(null, "", got.url); }
        shown = withoutHash(push ? got.url : window.location.href);
        window.scrollTo(0, keep);
        var target = focusId && document.getElementById(focusId);
        if (!target && /^remove-/.test(focusId || "")) {
          var left = document.querySelectorAll("#hand-tiles button[name=remove]");
          target = left.length ? left[left.length - 1] : document.getElementById("add-" + removedCode);
        }
        // What the tap brought is brought into view: the result, or a mistake (the page says
        // one at its top: a 15th tile, a 5th copy, a hand that cannot win). A hand still being
        // built stays where it is, so the palette does not move under the thumb (its count
        // waits beside the typed field).
        var said = document.querySelector(".result") ||
          (document.querySelector(".error-summary") && document.querySelector(".errors"));
        if (said) {
          said.scrollIntoView({ block: "start" });
        }
        rove();
        if (target) {   // the keyboard stays where it was; the page scrolls only if it must
          target.focus({ preventScroll: true });
          if (!said) { target.scrollIntoView({ block: "nearest" }); }
        }
      })
      .catch(function () { window.location.assign(url); });
  };
  var canSwap = function () {   // not in a sandbox: its opaque origin may neither fetch nor push
    return !mahjongFrame.scripted && window.origin !== "null" && window.fetch && window.DOMParser &&
      window.history && history.pushState;
  };
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    if (!button || !PICKER.test(button.name || "") || !canSwap() ||
        (form.method || "get").toLowerCase() !== "get") {
      return;
    }
    event.preventDefault();
    if (busy) { pending.push([form.id, button.name, button.value]); return; }
    busy = true;
    var data = new FormData(form);
    data.append(button.name, button.value);
    var query = new URLSearchParams();
    data.forEach(function (value, key) { if (typeof value === "string") { query.append(key, value); } });
    var action = new URL(form.getAttribute("action") || window.location.pathname, window.location.href);
    action.search = query.toString();
    var img = button.querySelector("img");
    var removedCode = img ? (img.getAttribute("src") || "").split("#t")[1] : "";
    swapIn(action.toString(), true, button.id, removedCode)
      .then(function () {
        busy = false;
        var next = pending.shift();
        var again = next && document.getElementById(next[0]);
        var same = again && again.querySelector("button[name='" + next[1] + "'][value='" +
                                                 next[2].replace(/'/g, "") + "']");
        if (same) { same.click(); } else { pending = []; }
      });
  });
  // Back (and forward) through the taps: the address the history holds, fetched and swapped
  // in place. A change of the fragment alone (a skip link) fetches nothing.
  window.addEventListener("popstate", function () {
    if (!canSwap() || withoutHash(window.location.href) === shown) { return; }
    pending = [];
    busy = true;
    swapIn(window.location.href, false, "", "").then(function () { busy = false; });
  });

  // "Put this hand on your page": a Copy button beside each text (without this file the text
  // is there to select). Listened for on the document: the picker replaces the page's <main>.
  var showCopyButtons = function () {
    document.querySelectorAll("button.copy[data-copy]").forEach(function (b) { b.hidden = false; });
  };
  showCopyButtons();
  new MutationObserver(showCopyButtons).observe(document.body, { childList: true, subtree: true });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.copy[data-copy]");
    var text = button && document.getElementById(button.getAttribute("data-copy"));
    if (!text) { return; }
    var said = function () { button.textContent = button.getAttribute("data-copied"); };
    var byHand = function () {
      text.focus();
      text.select();
      try { if (document.execCommand("copy")) { said(); } } catch (e) { /* the text stays selected */ }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text.value).then(said, byHand);
    } else {
      byHand();
    }
  });

  // The palette, and the row of meld kinds, each one stop in the tab order (a roving tabindex):
  // the arrow keys move between its buttons (in the palette up and down go to the nearest tile
  // of the row above or below), Home and End to the first and last; Tab leaves it. Disabled
  // buttons are passed over. Without this file every button is a stop of its own.
  var ROVING = [[".palette", "button.tile-button"], [".two-tap .kinds", "button.kind"]];
  var groupOf = function (element) {   // [the group, its buttons' selector], or null
    for (var i = 0; i < ROVING.length; i++) {
      var group = element.closest && element.closest(ROVING[i][0]);
      if (group && element.matches(ROVING[i][1])) { return [group, ROVING[i][1]]; }
    }
    return null;
  };
  var tilesOf = function (grid, selector) {
    return Array.prototype.filter.call(grid.querySelectorAll(selector || "button.tile-button"),
                                       function (b) { return !b.disabled; });
  };
  var rove = function () {
    ROVING.forEach(function (kind) {
      document.querySelectorAll(kind[0]).forEach(function (grid) {
        var tiles = tilesOf(grid, kind[1]);
        var current = tiles.filter(function (b) { return b === document.activeElement; })[0] ||
          tiles.filter(function (b) { return b.getAttribute("aria-pressed") === "true"; })[0] ||
          tiles.filter(function (b) { return b.getAttribute("tabindex") === "0"; })[0] || tiles[0];
        grid.querySelectorAll(kind[1]).forEach(function (b) {
          b.setAttribute("tabindex", b === current ? "0" : "-1");
        });
      });
    });
  };
  document.addEventListener("focusin", function (event) {
    var found = groupOf(event.target);
    if (!found) { return; }
    found[0].querySelectorAll(found[1]).forEach(function (b) {
      b.setAttribute("tabindex", b === event.target ? "0" : "-1");
    });
  });
  var nearestInRow = function (tiles, from, down) {
    var box = from.getBoundingClientRect();
    var rows = tiles.filter(function (b) {
      var top = b.getBoundingClientRect().top;
      return down ? top > box.top + box.height / 2 : top < box.top - box.height / 2;
    });
    if (!rows.length) { return null; }
    var rowTop = down ? Math.min.apply(null, rows.map(function (b) { return b.getBoundingClientRect().top; }))
                      : Math.max.apply(null, rows.map(function (b) { return b.getBoundingClientRect().top; }));
    var row = rows.filter(function (b) { return Math.abs(b.getBoundingClientRect().top - rowTop) < 2; });
    var centre = box.left + box.width / 2;
    return row.reduce(function (best, b) {
      var r = b.getBoundingClientRect();
      return Math.abs(r.left + r.width / 2 - centre) < Math.abs(best.getBoundingClientRect().left +
        best.getBoundingClientRect().width / 2 - centre) ? b : best;
    });
  };
  document.addEventListener("keydown", function (event) {
    var found = groupOf(event.target);
    if (!found || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var tiles = tilesOf(found[0], found[1]);
    var at = tiles.indexOf(event.target);
    var line = found[1] === "button.kind";   // the kinds: one line, wherever it wraps
    var next = null;
    if (event.key === "ArrowRight" || (line && event.key === "ArrowDown")) {
      next = tiles[Math.min(at + 1, tiles.length - 1)];
    } else if (event.key === "ArrowLeft" || (line && event.key === "ArrowUp")) {
      next = tiles[Math.max(at - 1, 0)];
    } else if (event.key === "Home") { next = tiles[0]; }
    else if (event.key === "End") { next = tiles[tiles.length - 1]; }
    else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      next = nearestInRow(tiles, event.target, event.key === "ArrowDown") || event.target;
    } else { return; }
    event.preventDefault();
    if (next) { next.focus(); }
  });

  // The hand typed in notation is drawn tile by tile as it is typed, and what cannot be read is
  // said at once (the server still reads it when the form is sent). The sentences are the
  // page's own, in its language (data-* of #typed-live).
  var SUITS = { m: 9, p: 9, s: 9, z: 7 };
  var readTyped = function (text) {
    var source = text.replace(/\s+/g, "").toLowerCase();
    var tiles = [];
    var re = /([0-9]+)([mpsz])/y;
    var pos = 0;
    while (pos < source.length) {
      re.lastIndex = pos;
      var match = re.exec(source);
      if (!match) {
        var rest = source.slice(pos);
        var digits = /^[0-9]*/.exec(rest)[0];
        return digits.length === rest.length ? { tiles: tiles, problem: "suit", text: digits }
          : { tiles: tiles, problem: "bad", text: rest[digits.length] };
      }
      for (var i = 0; i < match[1].length; i++) {
        var rank = Number(match[1][i]);
        if (rank < 1 || rank > SUITS[match[2]]) {
          return { tiles: tiles, problem: "bad", text: match[1][i] + match[2] };
        }
        tiles.push(match[1][i] + match[2]);
      }
      pos = re.lastIndex;
    }
    return { tiles: tiles, problem: "", text: "" };
  };
  var drawTyped = function () {
    var live = document.getElementById("typed-live");
    var field = document.getElementById("hand");
    if (!live || !field) { return; }
    var row = document.getElementById("typed-tiles");
    var status = document.getElementById("typed-status");
    var read = readTyped(field.value);
    var melds = document.getElementById("melds");
    var meldCount = melds ? melds.value.split(/[,\s]+/).filter(Boolean).length : 0;
    var say = function (name, values) {
      var text = live.getAttribute("data-" + name) || "";
      Object.keys(values).forEach(function (k) { text = text.replace("{" + k + "}", values[k]); });
      return text;
    };
    var copies = {};
    var fifth = "";
    read.tiles.forEach(function (code) {
      copies[code] = (copies[code] || 0) + 1;
      if (copies[code] === 5 && !fifth) { fifth = code; }
    });
    row.textContent = "";
    var named = {};   // each tile's name in the page's language, from its image
    read.tiles.forEach(function (code) {
      var source = document.querySelector(".palette img[src$='#t" + code + "']") ||
                   document.querySelector("img.tile[src$='#t" + code + "']");
      named[code] = source ? source.getAttribute("alt") : code;
      var img = source ? source.cloneNode(true) : document.createTextNode(code + " ");
      if (img.removeAttribute) { img.removeAttribute("id"); }
      row.appendChild(img);
    });
    var count = read.tiles.length + 3 * meldCount;
    var message = read.problem ? say(read.problem, { text: read.text })
      : fifth ? say("fifth", { text: named[fifth] || fifth })
      : count > 14 ? say("many", { n: count })
      : read.tiles.length === 1 ? say("one", {}) : say("tiles", { n: read.tiles.length });
    status.textContent = field.value.trim() ? message : "";
    status.classList.toggle("problem", !!(read.problem || fifth || count > 14));
    live.hidden = !field.value.trim();
  };
  document.addEventListener("input", function (event) {
    if (event.target.id === "hand" || event.target.id === "melds") { drawTyped(); }
  });
  // The skip link puts the keyboard in the typed hand at once.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.skip");
    var target = link && document.getElementById((link.getAttribute("href") || "").slice(1));
    if (target) { event.preventDefault(); target.focus(); }
  });
  rove();
})();

// The game sheet in this browser's storage: a phone keeps its sheet across a reload.
// Progressive enhancement only: every link and form of the sheet works without this file.
(function () {
  "use strict";
  var KEY = "mahjong-calculator:sheet";
  if (mahjongFrame.embedded) { return; }   // an embedded view touches no storage
  var storage = null;
  try { storage = window.localStorage; } catch (e) { storage = null; }   // private modes refuse
  if (!storage) { return; }

  // The sheet is kept without its page language (lang=): a page brings it back in its own.
  var inLanguage = function (query, lang) {
    var params = new URLSearchParams(query);
    params.delete("lang");
    if (lang) { params.set("lang", lang); }
    return params;
  };
  var state = document.getElementById("sheet-state");
  if (state) {
    var search = window.location.search;
    var here = new URLSearchParams(search);
    var lang = here.get("lang") || "";
    here.delete("lang");
    if (!here.toString() && storage.getItem(KEY)) {
      // the bare address (in any language): bring back the sheet kept in this browser
      window.location.replace("/sheet?" + inLanguage(storage.getItem(KEY), lang).toString());
      return;
    }
    var link = state.getAttribute("data-link") || "";
    if (link.indexOf("?") >= 0 && state.getAttribute("data-valid") === "yes" && !/[?&]new=1/.test(search)) {
      storage.setItem(KEY, inLanguage(link.slice(link.indexOf("?") + 1), "").toString());
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
    var params = inLanguage(kept, target.searchParams.get("lang"));
    params.set("add", target.searchParams.get("add") || "");
    add.href = "/sheet?" + params.toString();
  }
})();

// A shared sheet's live part (#live) swapped for a fresh copy, by the poll below or by the
// queue after the calculator answered a change. What this phone has typed or tapped and not yet
// sent, and the folds it opened, stay as they were: a half-typed line (the keyboard closed, the
// field no longer focused) is never lost. The form just sent (`sent`) comes back as the server
// drew it: its line is on the sheet now, or refused and said again by the server.
function mahjongKeep(old, fresh, sent) {
  old.querySelectorAll("details[id]").forEach(function (d) {
    var there = fresh.querySelector("details#" + d.id);
    if (there) { there.open = d.open; }
  });
  old.querySelectorAll("form[id] input:not([type=hidden])").forEach(function (input) {
    if (sent && input.form === sent) { return; }
    var same = fresh.querySelectorAll("form#" + input.form.id + " input");
    for (var i = 0; i < same.length; i++) {
      var there = same[i];
      if (there.name !== input.name || there.type !== input.type) { continue; }
      if (input.type === "radio" || input.type === "checkbox") {
        if (there.value === input.value && input.checked !== input.defaultChecked) { there.checked = input.checked; }
      } else if (input.value !== input.defaultValue) {
        there.value = input.value;
      }
    }
  });
}

function mahjongSwapLive(fresh, sent) {
  var old = document.getElementById("live");
  if (!fresh || !old) { return; }
  mahjongKeep(old, fresh, sent);
  old.replaceWith(fresh);
  document.dispatchEvent(new Event("mahjong:swapped"));
}

// A shared sheet (/s/<token>): follow the other phones' changes. Every few seconds the page
// asks for the sheet's version (a small answer, 304 while it is unchanged) and, when it moved,
// fetches the page again and swaps the sheet in place. Without this file a reload does the same.
(function () {
  "use strict";
  var current = function () { return document.getElementById("live"); };   // swapped in place
  var first = current();
  if (!first || !window.fetch || !window.DOMParser) { return; }
  var poll = first.getAttribute("data-poll");
  var every = parseInt(first.getAttribute("data-poll-ms"), 10) || 1500;
  var busy = function () {   // never swap the page under someone typing a hand, nor under a
    var active = document.activeElement;   // change still queued (its form would come back live)
    if (document.documentElement.hasAttribute("data-queued")) { return true; }
    return active && current().contains(active) && active.tagName === "INPUT" &&
      active.type !== "radio" && active.type !== "checkbox";   // a tap is kept (keep, below)
  };
  var refresh = function () {
    return fetch(window.location.pathname + window.location.search, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text || busy()) { return; }
        var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("live");
        mahjongSwapLive(fresh, null);
      });
  };
  var check = function () {
    var version = current().getAttribute("data-version");
    fetch(poll, { cache: "no-store", headers: { "If-None-Match": '"v' + version + '"' } })
      .then(function (r) {
        if (r.status !== 200) { return null; }
        return r.json().then(function (d) {
          if (String(d.version) !== current().getAttribute("data-version")) { return refresh(); }
          return null;
        });
      })
      .catch(function () { return null; })
      .then(function () { window.setTimeout(check, every); });
  };
  window.setTimeout(check, every);
})();

// A shared sheet's changes, each sent exactly once. The tapped button says it is saving at once
// and cannot be tapped again; the change goes into a queue kept in this browser, shown right
// after the form that was tapped, and leaves the queue only when this calculator itself
// answers it (X-Mahjong-Change, with the change's own id echoed): a Wi-Fi sign-in page's 200 or
// a proxy's 502 keeps it, and the queue says the send failed. Every send of an item carries
// the id its form was drawn with (`cid`), so a change whose answer was lost and is sent again
// is recorded once (app/store/sheets.py).
(function () {
  "use strict";
  var KEY = "mahjong-calculator:pending-changes";
  var RETRY_MS = 10000;
  if (mahjongFrame.embedded) { return; }   // an embedded view touches no storage
  var storage = null;
  try { storage = window.localStorage; } catch (e) { storage = null; }
  if (!storage || !window.fetch || !document.getElementById("live")) { return; }
  var here = window.location.pathname;
  var load = function () {
    try { return JSON.parse(storage.getItem(KEY) || "[]"); } catch (e) { return []; }
  };
  var save = function (items) { storage.setItem(KEY, JSON.stringify(items)); show(); };
  var said = function (box, name, value) {   // the page's own sentence, in its language
    return (box.getAttribute("data-" + name) || "").replace("{status}", value || "");
  };
  var formOf = function (item) {   // the tapped form, while the page still shows it
    if (!item.cid) { return null; }
    var input = document.querySelector('input[name="cid"][value="' + item.cid.replace(/[^A-Za-z0-9_-]/g, "") + '"]');
    return input ? input.form : null;
  };
  var show = function () {
    var box = document.getElementById("pending");
    var list = document.getElementById("pending-list");
    if (!box || !list) { return; }
    var mine = load().filter(function (item) { return item.page === here; });
    list.textContent = "";
    mine.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = item.label;
      if (item.failed) {
        var why = document.createElement("span");
        why.className = "send-failed";
        why.textContent = " " + said(box, item.failed === "network" ? "failed-network" : "failed-other", item.failed);
        li.appendChild(why);
      }
      list.appendChild(li);
    });
    box.hidden = mine.length === 0;
    if (mine.length) { document.documentElement.setAttribute("data-queued", String(mine.length)); }
    else { document.documentElement.removeAttribute("data-queued"); }
    // near the thumb: just after the form that was tapped (a hand's remove, inside a long table:
    // at the bottom of the screen, style.css #pending.floating)
    var form = mine.length ? formOf(mine[mine.length - 1]) : null;
    if (form) {
      var anchor = form.closest(".scroll") || form;
      if (anchor.nextElementSibling !== box) { anchor.insertAdjacentElement("afterend", box); }
      box.classList.toggle("floating", form.closest("table") !== null);
    }
  };
  var swapIn = function (text, sent) {
    mahjongSwapLive(new DOMParser().parseFromString(text, "text/html").getElementById("live"), sent);
  };
  var reload = function (to, sent) {   // the sheet as it is now, after a change the calculator saved
    return fetch(to, { cache: "no-store" }).then(function (r) {
      return r.ok ? r.text().then(function (text) {
        swapIn(text, sent);
        window.history.replaceState(null, "", to + "#hands");
      }) : null;
    });
  };
  var send = function (item) {
    return fetch(item.action, { method: "POST", body: item.body, redirect: "manual", cache: "no-store",
                                headers: { "Content-Type": "application/x-www-form-urlencoded",
                                           "X-Mahjong-Queue": "1" } });
  };
  var mark = function (cid, failed) {
    save(load().map(function (item) {
      if (item.cid === cid) { item.failed = failed; }
      return item;
    }));
  };
  var sending = false;
  var timer = null;
  var later = function () {
    if (timer === null) { timer = window.setTimeout(function () { timer = null; flush(); }, RETRY_MS); }
  };
  var answered = function (item, response) {
    // this calculator's answer to this change, or someone else's (a portal, a proxy)
    var outcome = response.headers.get("X-Mahjong-Change");
    var echoed = response.headers.get("X-Mahjong-Change-Id") || "";
    if (!outcome || echoed !== item.cid) { return null; }
    return outcome;
  };
  var flush = function () {
    if (sending) { return; }
    var item = load()[0];
    if (!item) { return; }
    if (navigator.onLine === false) { mark(item.cid, "network"); return; }
    sending = true;
    send(item).then(function (response) {
      var outcome = answered(item, response);
      if (!outcome) {
        mark(item.cid, String(response.status || "?"));
        sending = false;
        later();
        return null;
      }
      save(load().filter(function (kept) { return kept.cid !== item.cid; }));
      var shown = item.page === here;
      var sent = shown ? formOf(item) : null;
      var done = outcome === "saved"
        ? response.json().then(function (d) { return shown && d.to ? reload(d.to, sent) : null; })
        : response.text().then(function (text) { if (shown) { swapIn(text, sent); } });
      return done.catch(function () { return null; }).then(function () { sending = false; show(); flush(); });
    }).catch(function () {   // no answer at all: no signal, or the connection dropped
      sending = false;
      mark(item.cid, "network");
      later();
    });
  };
  // a typed line in words, as the page says a hand (its sentences and the players at the
  // seats, on the form): "Bob (S) won on Di's discard"; "" when the line says no such thing
  var inWords = function (form, line) {
    var words = {};
    line.split(/\s+/).forEach(function (word) {
      var at = word.indexOf("=");
      if (at > 0) { words[word.slice(0, at)] = word.slice(at + 1).toUpperCase(); }
    });
    var seats = ["E", "S", "W", "N"];
    var players = (form.getAttribute("data-players") || "").split(",");
    var winds = (form.getAttribute("data-winds") || "").split(",");
    var seat = seats.indexOf(words.seat || "E");
    var from = seats.indexOf(words.discarder || "");
    if (!words.hand || seat < 0 || players.length !== 4 || winds.length !== 4) { return ""; }
    var said = words.by === "SELF-DRAW" ? form.getAttribute("data-said-self")
      : from >= 0 && from !== seat ? form.getAttribute("data-said-discard") : "";
    return (said || "").replace("{winner}", players[seat]).replace("{seat}", winds[seat])
      .replace("{discarder}", from >= 0 ? players[from] : "");
  };
  var working = function (form, button) {   // at once: the tap was taken, and cannot be taken twice
    var saying = (document.getElementById("live") || form).getAttribute("data-saving") || "…";
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) {
      b.disabled = true;
      b.setAttribute("aria-busy", "true");
    });
    if (button) { button.textContent = saying; }
  };
  document.addEventListener("submit", function (event) {
    var form = event.target;
    // getAttribute: the forms' own field named "action" hides the form's .action property
    var target = form.getAttribute("action") || "";
    if (target.indexOf("/change") < 0 || (form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    event.preventDefault();
    var data = new FormData(form);
    var cid = String(data.get("cid") || "");
    if (!cid || load().some(function (item) { return item.cid === cid; })) { return; }   // already on its way
    working(form, event.submitter || form.querySelector("button[type=submit]"));
    var line = String(data.get("line") || "");
    var typed = form.hasAttribute("data-typed") && line;
    // the label the page gives the change, in its own language (data-label on the form)
    var chinese = (document.documentElement.lang || "").indexOf("zh") === 0;
    var item = { page: here, action: target, cid: cid, body: new URLSearchParams(data).toString(),
                 label: (form.getAttribute("data-label") || "") +
                        (typed ? (chinese ? "：" : ": ") + (inWords(form, line) || line) : ""),
                 failed: "" };
    save(load().concat([item]));
    flush();
  });
  document.addEventListener("click", function (event) {
    if (event.target && event.target.id === "pending-send") {
      if (timer !== null) { window.clearTimeout(timer); timer = null; }
      flush();
    }
  });
  document.addEventListener("mahjong:swapped", show);
  window.addEventListener("online", flush);
  // an item kept by an older page has no id: it gets one now, kept with it from here on
  save(load().map(function (item) {
    if (!item.cid) {
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      item.cid = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
      item.body += "&cid=" + item.cid;
    }
    return item;
  }));
  flush();
})();

// Sharing a table: one tap makes one shared sheet. The button is disabled once its form is on
// its way (and enabled again when the browser brings the page back from its history).
(function () {
  "use strict";
  var buttons = function (form, off) {
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) {
      b.disabled = off;
      if (off) { b.setAttribute("aria-busy", "true"); } else { b.removeAttribute("aria-busy"); }
    });
  };
  // The share's id (cid), drawn here and kept for this tab and this sheet's state, so a second
  // tap, or a resend after a lost answer, names the same share and the server makes it once
  // (the page itself is cached for everyone, so the id cannot come with it).
  var shareId = function (form) {
    var field = form.querySelector("input[name=cid]");
    if (!field || !window.crypto || !window.crypto.getRandomValues) { return; }
    var state = new URLSearchParams(new FormData(form));
    state.delete("cid");
    var key = "mahjong-share:" + state.toString();
    var id = null;
    try { id = window.sessionStorage.getItem(key); } catch (e) { id = null; }
    if (!id) {
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      id = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      try { window.sessionStorage.setItem(key, id); } catch (e) { /* a private tab: one id a page */ }
    }
    field.value = id;
  };
  document.addEventListener("submit", function (event) {
    if (event.target.id === "share-form" && !event.defaultPrevented) {
      shareId(event.target);
      buttons(event.target, true);
    }
  });
  window.addEventListener("pageshow", function () {
    var form = document.getElementById("share-form");
    if (form) { buttons(form, false); }
  });
})();
