// The /house preview as the secretary types: progressive enhancement only (without this file
// the form is sent and the page comes back with the same preview). A pause in typing posts the
// form to /house/preview (POST: the form is too long for an address), which answers the preview
// rendered by the page's own template and each field's errors; both are swapped in place.
(function () {
  "use strict";

  var form = document.getElementById("house-form");
  if (!form || !form.dataset.preview || !window.fetch || !window.DOMParser) { return; }
  var PAUSE = 300;   // milliseconds of quiet before the form is sent
  var timer = null;
  var asked = 0;     // the number of the last request: an older answer arriving late is dropped

  var errorSlots = function (root) {
    var slots = {};
    root.querySelectorAll(".field-errors[data-errors-for]").forEach(function (slot) {
      slots[slot.getAttribute("data-errors-for")] = slot;
    });
    return slots;
  };

  var show = function (text) {
    var fresh = new DOMParser().parseFromString(text, "text/html");
    var preview = fresh.getElementById("house-preview");
    var shown = document.getElementById("house-preview");
    if (preview && shown) { shown.innerHTML = preview.innerHTML; }
    var live = fresh.getElementById("house-live-errors");
    var found = live ? errorSlots(live) : {};
    var slots = errorSlots(document);
    Object.keys(slots).forEach(function (name) {
      var slot = slots[name];
      slot.innerHTML = found[name] ? found[name].innerHTML : "";
      var field = slot.closest(".field");
      if (field) { field.classList.toggle("has-error", !!found[name]); }
    });
  };

  var send = function () {
    var mine = ++asked;
    fetch(form.dataset.preview, {
      method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "omit",
      headers: { "X-Requested-With": "fetch" }
    }).then(function (response) { return response.text(); })
      .then(function (text) { if (mine === asked) { show(text); } })
      .catch(function () { /* offline: the button still sends the form */ });
  };

  var later = function (event) {
    if (!event.target.name || event.target.name === "base") { return; }   // a new family reloads
    window.clearTimeout(timer);
    timer = window.setTimeout(send, PAUSE);
  };
  form.addEventListener("input", later);
  form.addEventListener("change", later);

  // Another family has other patterns: its own empty form is opened.
  var family = document.getElementById("base");
  var switcher = document.getElementById("house-switch");   // the form's way without this file
  if (switcher) { switcher.hidden = true; }
  if (family) {
    family.addEventListener("change", function () {
      var lang = form.querySelector("input[name=lang]");
      window.location.assign("/house?base=" + encodeURIComponent(family.value) +
                             (lang ? "&lang=" + encodeURIComponent(lang.value) : ""));
    });
  }
}());
