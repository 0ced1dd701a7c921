// The round ledger by taps, without a reload per tap: picking and removing the tiles of a
// win or of a hand at the wall's end happens here, and the step links open their section.
// Progressive enhancement only: without this file every tap is a GET that returns the page.
(function () {
  "use strict";

  // "123s45p" → ["1s", "2s", "3s", "4p", "5p"]
  function readTiles(text) {
    var found = [];
    var re = /([0-9]+)([mpsz])/g;
    var match;
    while ((match = re.exec(text.replace(/\s+/g, ""))) !== null) {
      for (var i = 0; i < match[1].length; i++) { found.push(match[1][i] + match[2]); }
    }
    return found;
  }

  // ["1s", "2s", "4p"] → "12s4p" (the picker's own compact notation)
  function writeTiles(tiles) {
    var out = "";
    for (var i = 0; i < tiles.length; i++) {
      var next = tiles[i + 1];
      out += tiles[i][0];
      if (!next || next[1] !== tiles[i][1]) { out += tiles[i][1]; }
    }
    return out;
  }

  function tileImage(picker, code) {
    var source = picker.querySelector(".palette button[name=add][value='" + code + "'] img");
    return source ? source.cloneNode(true) : document.createTextNode(code);
  }

  function drawHand(picker, hand) {
    var row = picker.querySelector(".picked .tile-row[id$='-hand-tiles']");
    var tiles = readTiles(hand.value);
    row.textContent = "";
    if (!tiles.length) {
      var empty = document.createElement("span");
      empty.className = "empty";
      empty.textContent = picker.getAttribute("data-empty") || "no tiles yet";
      row.appendChild(empty);
    }
    tiles.forEach(function (code, index) {
      var button = document.createElement("button");
      var image = tileImage(picker, code);
      button.type = "submit";
      button.name = "remove";
      button.value = String(index);
      button.className = "tile-button";
      // the page's own words, in its language: "Remove {tile}"
      var label = picker.getAttribute("data-remove") || "Remove {tile}";
      button.setAttribute("aria-label", label.replace("{tile}", image.alt || code));
      button.appendChild(image);
      row.appendChild(button);
    });
  }

  function drawDraft(picker, draft) {
    var row = picker.querySelector(".draft .tile-row");
    if (!row) { return; }
    row.textContent = "";
    readTiles(draft.value).forEach(function (code) { row.appendChild(tileImage(picker, code)); });
  }

  document.querySelectorAll(".step-form .picker").forEach(function (picker) {
    var form = picker.closest("form");
    var hand = picker.querySelector("input[name=hand]");
    var draft = picker.querySelector("input[name=draft]");
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !picker.contains(button)) { return; }
      // a meld being made (its kind chosen, or an older link's tile-by-tile meld) is the
      // server's: the tap goes there (app.js swaps the answer in place)
      var toMeld = !!picker.querySelector("input[name=target][value=meld]");
      if (picker.querySelector("input[name=newmeld]")) { return; }
      if (button.name === "add") {
        if (toMeld && !draft) { return; }
        event.preventDefault();
        var field = toMeld ? draft : hand;
        field.value = writeTiles(readTiles(field.value).concat([button.value]));
        if (toMeld) { drawDraft(picker, draft); } else { drawHand(picker, hand); }
        var focus = picker.querySelector(".palette button[name=add][value='" + button.value + "']");
        if (focus) { focus.focus(); }
      } else if (button.name === "remove" && button.closest(".tile-row")) {
        event.preventDefault();
        var tiles = readTiles(hand.value);
        tiles.splice(Number(button.value), 1);
        hand.value = writeTiles(tiles);
        drawHand(picker, hand);
      }
    });
  });

  // The step links open their section in place.
  document.querySelectorAll(".step-links a").forEach(function (link) {
    link.addEventListener("click", function (event) {
      var id = link.getAttribute("href").split("#")[1];
      var section = id && document.getElementById(id);
      if (!section) { return; }
      event.preventDefault();
      document.querySelectorAll("details.step[open]").forEach(function (d) {
        if (d !== section) { d.open = false; }
      });
      section.open = true;
      section.scrollIntoView({ block: "start" });
    });
  });
})();
