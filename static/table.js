// "Share this table" on a shared sheet (/s/<token>): the platform's share sheet where there is
// one (navigator.share), a copy button everywhere. Progressive enhancement: without this file
// the address is in a field to long-press and the QR codes are drawn by the server.
(function () {
  "use strict";
  var root = document.documentElement;
  var box = document.getElementById("share-table");
  if (box && window.location.hash === "#share-table") { box.open = true; }   // just shared
  root.classList.add("can-copy");
  if (navigator.share) { root.classList.add("can-share"); }
  var say = function (button, text) {
    var status = button.parentNode.querySelector(".copied");
    if (status) { status.textContent = text; }
  };
  var copy = function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) { return; }
    var done = function () { say(button, button.getAttribute("data-copied") || ""); };
    var fallback = function () {
      field.focus();
      field.select();
      try { if (document.execCommand("copy")) { done(); } } catch (e) { /* the text stays selected */ }
      field.blur();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, fallback);
    } else {
      fallback();
    }
  };
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy], button[data-share]") : null;
    if (!button) { return; }
    event.preventDefault();
    if (button.hasAttribute("data-copy")) { copy(button); return; }
    navigator.share({ title: button.getAttribute("data-title") || document.title,
                      url: button.getAttribute("data-share") }).catch(function () { return null; });
  });
})();

// The agreed hand (four taps): the winner cannot be the one who dealt in, and the confirm
// button's line says the hand in words ("阿強 (南): 阿明出銃, 5 番") before it is sent; the
// offline list shows the same words (the form's data-label).
(function () {
  "use strict";
  var picked = function (form, name) { return form.querySelector("input[name='" + name + "']:checked"); };
  var label = function (input) { return input ? input.parentNode.textContent.trim() : ""; };
  var player = function (text) { return text.replace(/\s*\(.*\)\s*$/, ""); };
  var say = function (form) {
    var winner = picked(form, "winner");
    var way = picked(form, "from");
    var fan = picked(form, "fan");
    form.querySelectorAll("input[name='from']").forEach(function (input) {
      input.disabled = Boolean(winner) && input.value === winner.value;
      if (input.disabled && input.checked) { input.checked = false; way = null; }
    });
    var output = form.querySelector(".agreed-words");
    if (!output) { return; }
    var text = "";
    if (winner && way) {
      var how = way.value === "self-draw" ? label(way)
        : form.getAttribute("data-dealt-in").replace("{who}", player(label(way)));
      text = label(winner) + form.getAttribute("data-colon") + how;
      if (fan) { text += form.getAttribute("data-comma") + form.getAttribute("data-fan").replace("{n}", fan.value); }
      if (!form.hasAttribute("data-action-label")) { form.setAttribute("data-action-label", form.getAttribute("data-label")); }
      form.setAttribute("data-label", form.getAttribute("data-action-label") + form.getAttribute("data-colon") + text);
    }
    output.textContent = text;
  };
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.classList.contains("agreed")) { say(form); }
  });
  var again = function () {
    var form = document.getElementById("agreed");
    if (form) { say(form); }
  };
  document.addEventListener("mahjong:swapped", again);   // the sheet swapped in by app.js
  again();
})();
