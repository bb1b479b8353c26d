"""What the browser tests share about a page: finding things through the shadow roots Bokeh and Panel draw in,
waiting for a page to hold still, and seeing what a page sent its server.

Conditions, never pauses: :func:`settled` returns as soon as the page has stopped changing.
"""

from __future__ import annotations

from typing import Any

#: Finds elements and visible text through the shadow roots every Bokeh and Panel component draws itself in.
DEEP = """
window.lpDeep = (selector) => {
  const out = [];
  const walk = (root) => {
    root.querySelectorAll(selector).forEach((e) => out.push(e));
    root.querySelectorAll('*').forEach((e) => { if (e.shadowRoot) walk(e.shadowRoot); });
  };
  walk(document);
  return out;
};
window.lpVisibleText = () => {
  const lines = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        const parent = child.parentElement;
        if (child.textContent.trim() && parent && !parent.closest('code, script, style')
            && parent.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) {
          lines.push(child.textContent.trim());
        }
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        if (child.shadowRoot) walk(child.shadowRoot);
        walk(child);
      }
    }
  };
  walk(document.body);
  return lines;
};
window.lpFocused = () => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return e;
};
"""


#: Keeps every message the page sends its server (``lpSent``), for tests of what a page did not send.
SENT = """
window.lpSent = [];
const lpSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.lpSent.push(typeof data === 'string' ? data : ''); return lpSend.call(this, data); };
"""
#: How many key presses the page has sent to the server (the shortcut component's ``press`` changing).
PRESSES_SENT = "lpSent.filter((m) => m.includes('\"attr\":\"press\"')).length"


#: What the page looks like, in a few numbers: its scroll size, the first canvas's box, how much text it holds and
#: how many canvases.
LAYOUT = """(() => {
  const walk = (root, out) => { root.querySelectorAll('*').forEach((e) => { if (e.tagName === 'CANVAS') out.push(e);
                                                                          if (e.shadowRoot) walk(e.shadowRoot, out); }); return out; };
  const found = walk(document, []);
  const canvas = found[0];
  let text = document.body.textContent.length;  // and the text in every shadow root, where Bokeh and Panel draw
  const deep = (root) => root.querySelectorAll('*').forEach((e) => { if (e.shadowRoot) { text += e.shadowRoot.textContent.length; deep(e.shadowRoot); } });
  deep(document);
  const r = canvas ? canvas.getBoundingClientRect() : {left: 0, top: 0, width: 0, height: 0};
  const el = document.scrollingElement;
  return [el.scrollWidth, el.scrollHeight, el.clientWidth, Math.round(r.left), Math.round(r.top), Math.round(r.width),
          Math.round(r.height), text, found.length];
})()"""


def settled(page: Any, signature: str = LAYOUT, timeout: float = 30_000) -> None:
    """Wait until the page holds still: ``signature`` (a JavaScript expression) reads the same on three polls in a row.

    A condition, not a pause: a page that settles at once is measured at once, and one still being laid out
    (after a resize, a tab's first drawing, an update on its way) is waited for, up to ``timeout``.
    """
    page.evaluate("window.__lpSeen = []")
    page.wait_for_function(f"""() => {{ const s = JSON.stringify({signature}); const seen = window.__lpSeen;
                                      seen.push(s); return seen.length >= 3 && seen.slice(-3).every((x) => x === s); }}""",
                           polling=250, timeout=timeout)




#: All the text the page holds, through every shadow root (hidden text too): it changes when the server answers.
DEEP_TEXT = """(() => {
  const parts = [document.body.textContent];
  const walk = (root) => root.querySelectorAll('*').forEach((e) => { if (e.shadowRoot) { parts.push(e.shadowRoot.textContent); walk(e.shadowRoot); } });
  walk(document);
  return parts.join('\\n');
})()"""


def answered(page: Any, before: str, timeout: float = 30_000) -> None:
    """Wait until the page's text (:data:`DEEP_TEXT`) is no longer ``before``: the server has answered a click."""
    page.wait_for_function(f"(before) => {DEEP_TEXT} !== before", arg=before, timeout=timeout)


#: Everything but the board's text alternative for screen readers (its visually hidden table and announcement),
#: which repeats the log's sentences and the fields' names.
SHOWN = ":not(.lp-board-news):not(.lp-board-text *)"


def shown_text(page: Any, text: Any, **options: Any) -> Any:
    """``page.get_by_text(text)`` among the words drawn on screen, leaving out the board's text alternative."""
    return page.get_by_text(text, **options).and_(page.locator(SHOWN))
