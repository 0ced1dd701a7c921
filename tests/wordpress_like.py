"""What WordPress 6.1 does with an oEmbed answer of a provider it does not trust, re-described
for the tests (our own code, not WordPress's, which is GPL-2.0+).

`filtered()` follows `wp_filter_oembed_result()` (wp-includes/embed.php): wp_kses() keeps
<blockquote>, <a href> and <iframe src width height frameborder marginwidth marginheight
scrolling title>; a regular expression keeps the leading blockquote and the first iframe;
the iframe's src gets `#?secret=<10 letters>`, both get data-secret; with a blockquote the
iframe is clipped out of sight until the frame speaks; the iframe is sandboxed with
`allow-scripts` only. `HOST_SCRIPT` speaks the host's side of wp-embed.js's protocol, written
from its description: "height" (clamped to 200..1000 px) and "link" (followed in the top
window when its host is the frame's and the frame has the focus) from a frame whose secret
matches; "ready" posted into each frame on load.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

KEPT = {"blockquote": (), "a": ("href",),
        "iframe": ("src", "width", "height", "frameborder", "marginwidth", "marginheight",
                   "scrolling", "title")}


class _Kses(HTMLParser):
    """Every tag and attribute outside KEPT dropped; the text of a dropped element stays."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in KEPT:
            kept = "".join(f' {k}="{html.escape(v or "")}"' for k, v in attrs if k in KEPT[tag])
            self.out.append(f"<{tag}{kept}>")

    def handle_endtag(self, tag):
        if tag in KEPT:
            self.out.append(f"</{tag}>")

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))


def kept(markup: str) -> tuple[str, str]:
    """The leading blockquote ("" if none) and the first iframe that the filter keeps."""
    kses = _Kses()
    kses.feed(markup)
    kses.close()
    found = re.search(r"(<blockquote>.*?</blockquote>)?.*(<iframe.*?></iframe>)", "".join(kses.out),
                      re.S)
    if found is None or not found[2]:
        raise ValueError(f"WordPress keeps no iframe of {markup!r}")
    return found[1] or "", found[2]


def filtered(markup: str, secret: str) -> str:
    """The markup WordPress puts in the post for this oEmbed html."""
    quote, frame = kept(markup)
    src = re.search(r' src="([^"]*)"', frame)
    frame = frame.replace(src[0], f' src="{src[1]}#?secret={secret}" data-secret="{secret}"')
    if quote:
        quote = quote.replace("<blockquote", f'<blockquote class="wp-embedded-content" '
                                             f'data-secret="{secret}"')
        frame = frame.replace("<iframe", '<iframe style="position: absolute; '
                                         'clip: rect(1px, 1px, 1px, 1px);"')
    return quote + frame.replace("<iframe", '<iframe class="wp-embedded-content" '
                                            'sandbox="allow-scripts" security="restricted"')


HOST_SCRIPT = """
// The host side of WordPress's embed messages, our own minimal version (see tests/wordpress_like.py).
(function () {
  window.heights = [];
  window.addEventListener("message", function (event) {
    var data = event.data || {};
    if (!data.secret || /[^a-zA-Z0-9]/.test(data.secret)) { return; }
    document.querySelectorAll('blockquote[data-secret="' + data.secret + '"]')
      .forEach(function (quote) { quote.style.display = "none"; });
    document.querySelectorAll('iframe[data-secret="' + data.secret + '"]').forEach(function (frame) {
      if (event.source !== frame.contentWindow) { return; }
      frame.removeAttribute("style");
      if (data.message === "height") {
        var height = parseInt(data.value, 10) || 0;
        frame.height = Math.max(200, Math.min(1000, height));
        window.heights.push(height);
      }
      if (data.message === "link") {
        var to = new URL(data.value, location.href);
        var from = new URL(frame.getAttribute("src"), location.href);
        if (/^https?:$/i.test(to.protocol) && to.host === from.host &&
            document.activeElement === frame) {
          window.top.location.href = data.value;
        }
      }
    });
  });
  var ready = function () {
    document.querySelectorAll("iframe.wp-embedded-content").forEach(function (frame) {
      frame.contentWindow.postMessage({ message: "ready", secret: frame.getAttribute("data-secret") }, "*");
    });
  };
  document.addEventListener("DOMContentLoaded", ready);
  window.addEventListener("load", ready);
})();
"""


def post_page(title: str, markup: str, host_script: bool = True) -> str:
    """A post as a block theme shows an embed block (the block library's `max-width: 100%`);
    without its host script when the test runs it later (a frame that loaded first)."""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>body {{ margin: 0 auto; padding: 0 20px; max-width: 650px; font-family: sans-serif; }}
.wp-block-embed {{ margin: 0; overflow-wrap: break-word; }}
.wp-block-embed iframe {{ max-width: 100%; }}</style></head>
<body><h1>{html.escape(title)}</h1>
<figure class="wp-block-embed is-type-rich"><div class="wp-block-embed__wrapper">
{markup}
</div></figure>
<p>After the figure.</p>
{f"<script>{HOST_SCRIPT}</script>" if host_script else ""}
</body></html>
"""
