// Fan to payment: the slider and the number field move together, and the payments follow
// at once. Without this file the number field and the "Show the payments" button do it all.
(function () {
  "use strict";

  var form = document.getElementById("points-form");
  if (!form) { return; }
  var number = document.getElementById("fan");
  var slider = document.getElementById("fan-slider");
  var latest = 0;
  var timer = null;

  // The payments follow every change at once: the button is only for a page without this file.
  var show = form.querySelector(".show-payments");
  if (show) { show.hidden = true; }
  if (slider) {
    slider.hidden = false;
    slider.addEventListener("input", function () {
      number.value = slider.value;
      schedule(0);
    });
  }
  number.addEventListener("input", function () {
    if (slider && number.value !== "" && !isNaN(Number(number.value))) {
      slider.value = Math.min(Number(number.value), Number(slider.max));
    }
    if (number.checkValidity()) { schedule(150); }
  });
  form.addEventListener("change", function (event) {
    if (event.target !== number && event.target !== slider) { schedule(0); }
  });

  function schedule(delay) {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(refresh, delay);
  }

  // Ask the page itself for the new state and swap in its result and table: one renderer.
  function refresh() {
    // In WordPress's sandbox (an opaque origin) the page cannot fetch itself: go to the new
    // state instead, as the frame's GET forms do (app.js).
    if (window.mahjongFrame && window.mahjongFrame.scripted) {
      window.mahjongFrame.submit(form);
      return;
    }
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (value !== "") { query.append(name, value); }   // a link as short as the server's
    });
    query = query.toString();
    var url = window.location.pathname + "?" + query;
    var ticket = ++latest;
    form.setAttribute("aria-busy", "true");
    fetch(url, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        if (ticket !== latest) { return; }
        var fresh = new DOMParser().parseFromString(text, "text/html");
        // Swap the contents, keeping the elements: the result stays one aria-live region.
        ["points-result", "conversion"].forEach(function (id) {
          var now = document.getElementById(id);
          var next = fresh.getElementById(id);
          if (now && next) {
            now.replaceChildren.apply(now, Array.prototype.map.call(next.childNodes, function (node) {
              return document.importNode(node, true);
            }));
          }
        });
        // what the folded table rules and "who won" say of themselves follows too
        ["#dials > summary", ".who-fold > summary"].forEach(function (selector) {
          var now = document.querySelector(selector);
          var next = fresh.querySelector(selector);
          if (now && next) { now.innerHTML = next.innerHTML; }
        });
        var freshNumber = fresh.getElementById("fan");
        if (freshNumber) { number.max = freshNumber.max; }
        history.replaceState(null, "", url);
        form.removeAttribute("aria-busy");
        document.dispatchEvent(new CustomEvent("mahjong:points-updated"));
      })
      .catch(function () { form.submit(); });
  }
})();
