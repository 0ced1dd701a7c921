// One-line embed for lesson pages. A lesson author writes, anywhere on the page,
//   <div data-mahjong="rules=hong-kong&hand=123m456m789m234p55s" data-view="card"></div>
// plus once <script src="https://calculator.example.org/static/embed.js" async></script>.
// Each such element gets an iframe of the calculator (data-view: card, calculator or quiz),
// or of a club's standings or member card (data-view: standings, member; data-mahjong names
// the club's VIEW token, `club=<token>`, the member `member=<id>`, and may say `season=`),
// loaded lazily, named for screen readers (data-title overrides the name), and fitted to the
// height its page reports by postMessage. Messages from any other origin are ignored.
// The frame speaks the lesson's language: `lang=` in data-mahjong if given, else the nearest
// lang attribute around the element (<html lang="zh-HK"> → Traditional Chinese, zh-CN →
// Simplified; anything else English).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) {
    return;
  }
  var origin = new URL(script.src).origin;
  var VIEWS = {
    card: { path: "/card", height: 400,
            title: { en: "Mahjong hand card", "zh-Hant": "麻雀手牌卡片", "zh-Hans": "麻将手牌卡片" } },
    calculator: { path: "/embed", height: 600,
                  title: { en: "Mahjong scoring calculator", "zh-Hant": "麻雀計番器",
                           "zh-Hans": "麻将算番器" } },
    quiz: { path: "/embed/practice", height: 500,
            title: { en: "Mahjong quiz: count the fan", "zh-Hant": "麻雀測驗：計番",
                     "zh-Hans": "麻将测验：算番" } },
    standings: { path: "/embed/standings", height: 600, club: true,
                 title: { en: "Club standings", "zh-Hant": "雀會排名榜", "zh-Hans": "俱乐部排名" } },
    member: { path: "/embed/members/", height: 600, club: true,
              title: { en: "Club member", "zh-Hant": "雀會會員", "zh-Hans": "俱乐部会员" } }
  };

  // A club's view: its path (/c/<token>/embed/…) and the query left, or null for a token or
  // member that cannot be one (the frame is not made).
  function clubPath(view, query) {
    var params = new URLSearchParams(query);
    var token = params.get("club") || "";
    var member = params.get("member") || "";
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(token) || (view === VIEWS.member && !/^[0-9]{1,9}$/.test(member))) {
      return null;
    }
    params.delete("club");
    params.delete("member");
    return { path: "/c/" + token + view.path + (view === VIEWS.member ? member : ""), query: params.toString() };
  }

  // The page language of a lang tag as the calculator names it, or "" for none of ours.
  function pageLang(tag) {
    var t = (tag || "").toLowerCase().replace(/_/g, "-");
    if (/^zh-(hant|tw|hk|mo)\b/.test(t)) { return "zh-Hant"; }
    if (t === "zh" || /^zh-(hans|cn|sg)\b/.test(t)) { return "zh-Hans"; }
    return /^en\b/.test(t) ? "en" : "";
  }

  function withLang(holder, query) {
    var params = new URLSearchParams(query);
    if (!params.has("lang")) {
      var around = holder.closest("[lang]");
      var lang = pageLang(around && around.getAttribute("lang"));
      if (lang && lang !== "en") {
        params.set("lang", lang);
        query = query ? query + "&lang=" + lang : "lang=" + lang;
      }
    }
    return { query: query, lang: pageLang(params.get("lang")) || "en" };
  }

  function frameName(view, query, lang) {
    var hand = new URLSearchParams(query).get("hand");
    return view.title[lang] + (hand ? (lang === "en" ? ": " : "：") + hand : "");
  }

  function upgrade(holder) {
    if (holder.getAttribute("data-mahjong-ready")) {
      return;
    }
    // only our own views: "toString", "__proto__" and the like are the card too
    var wanted = holder.getAttribute("data-view") || "card";
    var view = Object.prototype.hasOwnProperty.call(VIEWS, wanted) ? VIEWS[wanted] : VIEWS.card;
    var asked = withLang(holder, (holder.getAttribute("data-mahjong") || "").replace(/^\?/, ""));
    var query = asked.query;
    var path = view.club ? clubPath(view, query) : { path: view.path, query: query };
    if (!path) {
      return;
    }
    var frame = document.createElement("iframe");
    frame.src = origin + path.path + (path.query ? "?" + path.query : "");
    frame.title = holder.getAttribute("data-title") || frameName(view, query, asked.lang);
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

  // An oEmbed answer puts a plain link to the page (a blockquote) before its frame, for a
  // consumer that shows no frame; once the frame speaks, the link is not needed.
  function hideFallback(frame) {
    var before = frame.previousElementSibling;
    var link = before && before.tagName === "BLOCKQUOTE" && before.querySelector("a[href]");
    if (link && new URL(link.href, window.location.href).origin === origin) {
      before.hidden = true;
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
        hideFallback(frames[i]);
      }
    }
  });

  // A frame not loaded yet (lazy, or just made) still holds about:blank, of this page's origin:
  // a message for the calculator's origin cannot reach it (the browser logs the mismatch), and
  // it tells its height itself once loaded. A loaded frame of the calculator is cross-origin:
  // reading its address throws.
  function stillBlank(frame) {
    try {
      return frame.contentWindow.location.href === "about:blank";
    } catch (e) {
      return false;
    }
  }

  // A frame pasted with the page (an oEmbed answer) may have loaded, and told its height to
  // no one, before this script ran: ask each frame of this calculator to tell it again.
  function askHeights() {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i += 1) {
      var src = frames[i].getAttribute("src") || "";
      if (src && new URL(src, window.location.href).origin === origin && frames[i].contentWindow &&
          !stillBlank(frames[i])) {
        frames[i].contentWindow.postMessage({ type: "mahjong-calculator:height?" }, origin);
      }
    }
  }

  function start() {
    upgradeAll();
    askHeights();
  }

  start();
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  }
})();
