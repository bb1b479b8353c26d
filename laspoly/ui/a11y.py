"""What the page's widgets miss for keyboards and screen readers, added in the browser.

Bokeh and Panel draw every widget in its own shadow root, and some of their
parts have no Python handle: the tab headers, a card's header button, a
switch's focusable knob, a slider's handle.  :class:`PageAccessibility` is one
invisible component that finds them (through the shadow roots, again whenever a
part of the page is drawn anew) and gives them what assistive technology needs:

* the tab headers follow the WAI-ARIA tabs pattern: ``role=tablist``/``tab``,
  ``aria-selected``, the list before the panels and one tab in the Tab order,
  the arrow keys (and Home, End) move between tabs and Enter or Space opens
  the focused one;
* a card's header button is named by its title and says whether it is open;
* a switch is named by the text beside it (``lp-switch-label``), and clicking
  that text toggles it, as clicking a checkbox's label does;
* a slider's handle is named by the slider's title;
* a checkbox is named by the words Bokeh draws beside it (a ``div.bk-label``
  next to the input, not a ``<label>``, so the input has no name of its own);
* the chosen items of a multiple choice (Choices.js) lose the
  ``aria-selected`` that their role (none: they are plain tags) does not allow;
* a hidden tab's panel is ``inert``, and a number box's spin buttons (its
  arrow keys do the same) are left to the mouse;
* a button pressed from the keyboard that is turned off or drawn anew by its
  own action (Roll, a guess) would leave the focus on the page's body, so the
  next Tab starts from the top: the focus goes to the button nearest to it on
  screen that is on, and the keyboard carries on where the person was;
* a chosen item's remove button (Choices.js says "Remove item" in English) is
  named in the page's language.
"""

from __future__ import annotations

from typing import ClassVar

import param
from panel.reactive import ReactiveHTML

from laspoly.ui.boardtext import SR_ONLY

#: The 3 px focus ring (as ``FOCUS_CSS``), drawn inside a tab header so the strip of tabs does not clip it.
TAB_FOCUS_CSS = ".bk-tab:focus-visible { outline: 3px solid #0072B2 !important; outline-offset: -3px; }"

_SCRIPT = """
const ring = '3px solid #0072B2';
// every shadow root of the page (the document first)
state.roots = () => {
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    roots[i].querySelectorAll('*').forEach((e) => { if (e.shadowRoot) roots.push(e.shadowRoot); });
  }
  return roots;
};
// the text a person sees in an element, through its shadow root
state.text = (el) => {
  let out = '';
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { out += node.textContent + ' '; return; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (node.tagName && ['STYLE', 'SCRIPT', 'svg', 'SVG'].includes(node.tagName)) return;
    if (node.shadowRoot) walk(node.shadowRoot);
    node.childNodes.forEach(walk);
  };
  walk(el);
  return out.replace(/\\s+/g, ' ').trim();
};
state.tabs = (list) => [...list.querySelectorAll(':scope > .bk-tab')];
state.markTabs = (list) => {
  list.setAttribute('role', 'tablist');
  // a hidden tab's panel is out of the Tab order and out of reach of assistive technology, as it is out of sight
  const header = list.parentElement;
  for (const panel of header.parentNode.children) {
    if (panel !== header && !['STYLE', 'LINK'].includes(panel.tagName)) panel.inert = panel.getAttribute('aria-hidden') === 'true';
  }
  const tabs = state.tabs(list);
  const focused = list.getRootNode().activeElement;
  tabs.forEach((tab) => {
    const on = tab.classList.contains('bk-active');
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    // one tab in the Tab order: the open one, or the one the arrow keys moved to
    tab.tabIndex = (tabs.includes(focused) ? tab === focused : on) ? 0 : -1;
  });
};
state.tabKey = (e) => {
  const list = e.currentTarget;
  const tabs = state.tabs(list);
  const i = tabs.indexOf(e.composedPath()[0]);
  if (i < 0 || e.ctrlKey || e.metaKey || e.altKey) return;
  const n = tabs.length;
  let j;
  switch (e.key) {
    case 'ArrowRight': case 'ArrowDown': j = (i + 1) % n; break;
    case 'ArrowLeft': case 'ArrowUp': j = (i - 1 + n) % n; break;
    case 'Home': j = 0; break;
    case 'End': j = n - 1; break;
    case 'Enter': case ' ':
      e.preventDefault();
      e.stopImmediatePropagation();
      tabs[i].click();
      return;
    default: return;
  }
  e.preventDefault();
  e.stopImmediatePropagation();
  tabs.forEach((tab, k) => { tab.tabIndex = k === j ? 0 : -1; });
  tabs[j].focus();
  tabs[j].scrollIntoView({block: 'nearest', inline: 'nearest'});
};
state.apply = () => {
  state.timer = null;
  for (const root of state.roots()) {
    if (root !== document && !state.seen.has(root)) {
      state.seen.add(root);
      state.observer.observe(root, {childList: true, subtree: true});
    }
    root.querySelectorAll('.bk-headers-wrapper').forEach((list) => {
      // the tab list comes before the tabs' panels in the Tab order (its place on screen is the grid's)
      const header = list.parentElement;
      const first = header && [...header.parentNode.children].find((e) => !['STYLE', 'LINK'].includes(e.tagName));
      if (first && first !== header) header.parentNode.insertBefore(header, first);
      state.markTabs(list);
      if (!state.seen.has(list)) {
        state.seen.add(list);
        list.addEventListener('keydown', state.tabKey);
        // the open tab changes (a click, a key, the server): its header's class changes
        const observer = new MutationObserver(() => state.markTabs(list));
        observer.observe(list, {attributes: true, attributeFilter: ['class'], subtree: true});
        for (const panel of list.parentElement.parentNode.children) {
          observer.observe(panel, {attributes: true, attributeFilter: ['aria-hidden']});
        }
      }
    });
    root.querySelectorAll('button.card-header').forEach((button) => {
      const name = state.text(button);
      if (name && button.getAttribute('aria-label') !== name) button.setAttribute('aria-label', name);
      const open = !!button.querySelector('.icon-tabler-chevron-down');
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
    });
    root.querySelectorAll('[role=switch]').forEach((sw) => {
      const label = sw.parentNode && sw.parentNode.querySelector ? sw.parentNode.querySelector('.lp-switch-label') : null;
      if (!label) return;
      const name = state.text(label);
      if (name && sw.getAttribute('aria-label') !== name) sw.setAttribute('aria-label', name);
      if (!state.seen.has(label)) {
        state.seen.add(label);
        label.style.cursor = 'pointer';
        label.addEventListener('click', (e) => {
          if (e.composedPath().some((node) => node.tagName === 'A' || node.tagName === 'BUTTON')) return;
          const knob = sw.shadowRoot && sw.shadowRoot.querySelector('[tabindex]');
          if (knob) knob.click();
        });
      }
    });
    // a checkbox is named by the words beside it: Bokeh draws them in a div.bk-label, a sibling, not a <label>
    root.querySelectorAll('input[type=checkbox]').forEach((box) => {
      const label = box.parentNode && [...box.parentNode.children].find((e) => e.classList && e.classList.contains('bk-label'));
      const name = label ? label.textContent.trim() : '';
      if (name && box.getAttribute('aria-label') !== name) box.setAttribute('aria-label', name);
    });
    // a chosen item of a multiple choice is a plain tag: aria-selected belongs to options in a listbox only
    root.querySelectorAll('.choices__item[aria-selected]:not([role])').forEach((item) => item.removeAttribute('aria-selected'));
    // its remove button speaks the page's language (the picker's library says "Remove item" in English)
    root.querySelectorAll('.choices__button').forEach((button) => {
      const item = button.closest('.choices__item');
      const name = data.remove_item.replace('{value}', item ? (item.textContent.replace(button.textContent, '').trim()) : '');
      if (button.getAttribute('aria-label') !== name) button.setAttribute('aria-label', name);
      if (button.textContent !== data.remove_word) button.textContent = data.remove_word;
    });
    // a number box's spin buttons repeat what its arrow keys do: for the mouse only
    root.querySelectorAll('.bk-spin-btn').forEach((button) => {
      if (button.getAttribute('aria-hidden') !== 'true') { button.setAttribute('aria-hidden', 'true'); button.tabIndex = -1; }
    });
    root.querySelectorAll('.noUi-handle').forEach((handle) => {
      if (handle.hasAttribute('aria-label')) return;
      const title = handle.getRootNode().querySelector('.bk-slider-title');
      const name = title ? title.textContent.replace(/:.*$/, '').trim() : '';
      if (name) handle.setAttribute('aria-label', name);
    });
  }
};
// the focus a key press leaves behind: a button turned off, or drawn anew, by its own action would drop it on the body
state.deepActive = () => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return e;
};
state.keepFocus = () => {
  const press = state.pressed;
  if (!press || Date.now() - press.time > 4000) return;
  const active = state.deepActive();
  if (active && active !== document.body) return;
  if (press.el.isConnected && !press.el.disabled && press.el.getClientRects().length) { press.el.focus(); return; }
  const x = press.box.x + press.box.width / 2, y = press.box.y + press.box.height / 2;
  let best = null, distance = Infinity;
  for (const root of state.roots()) {
    root.querySelectorAll('button:not([disabled])').forEach((b) => {
      const r = b.getBoundingClientRect();
      if (!r.width || !r.height || b.closest('[inert]')) return;
      const d = Math.hypot(r.x + r.width / 2 - x, r.y + r.height / 2 - y);
      if (d < distance) { distance = d; best = b; }
    });
  }
  if (best) best.focus();
};
state.onKey = (e) => {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  const el = e.composedPath()[0];
  if (!el || el.tagName !== 'BUTTON') return;
  state.pressed = {el: el, box: el.getBoundingClientRect(), time: Date.now()};
  [300, 800, 1600, 3000].forEach((ms) => setTimeout(state.keepFocus, ms));  // the server's answer may take a moment
};
document.addEventListener('keydown', state.onKey, true);
// a part of the page drawn anew: look again, once the burst of changes is over
state.later = () => { if (!state.timer) state.timer = setTimeout(state.apply, 150); };
state.seen = new WeakSet();
state.observer = new MutationObserver(state.later);
state.observer.observe(document.body, {childList: true, subtree: true});
state.apply();
"""


class PageAccessibility(ReactiveHTML):
    """Invisible: gives the page's tabs, card headers, switches, sliders and checkboxes their keyboard behaviour and names."""

    remove_item = param.String(default="Remove {value}", doc="A chosen item's remove button's name ({value}: the item).")
    remove_word = param.String(default="Remove", doc="A chosen item's remove button's word.")

    _template = '<div id="a11y" style="display:none"></div>'

    _scripts: ClassVar[dict[str, str]] = {
        "render": _SCRIPT,
        "remove_item": "state.apply();",
        "remove": ("if (state.observer) state.observer.disconnect(); if (state.timer) clearTimeout(state.timer);"
                   "document.removeEventListener('keydown', state.onKey, true);"),
    }


class LiveRegion(ReactiveHTML):
    """A polite live region (``role=status``), visually hidden: a screen reader reads its text out when it changes.

    The region's element stays the same while its text changes (a pane drawn anew would be a new region, which
    screen readers do not announce).  ``text`` is plain text, never HTML: a script sets it as the element's
    ``textContent``, so a player's name such as ``<img src=x onerror=...>`` is read out as written and never
    runs (an HTML child of the template would be parsed as HTML in the page).
    """

    text = param.String(default="", doc="What to announce, as plain text.")
    label = param.String(default="", doc="The region's name in the page's language.")

    _template = (f'<div id="news" class="lp-board-news" role="status" aria-live="polite" aria-atomic="true" '
                 f'style="{SR_ONLY}"></div>')

    # text and name are set from scripts: an attribute bound to a parameter would be read back from the page as
    # undefined, and text is set as text, never parsed as HTML
    _scripts: ClassVar[dict[str, str]] = {
        "render": "news.setAttribute('aria-label', data.label); news.textContent = data.text",
        "label": "news.setAttribute('aria-label', data.label)",
        "text": "news.textContent = data.text",
    }
