"""A lesson rendered to HTML works offline: its figures draw and its mathematics renders with every request
outside the machine blocked (as ``make lessons`` writes it: Bokeh and Panel inlined, MathJax from a package)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import load_tool

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: the canvases a page has drawn on, looked for through the shadow roots Bokeh draws in
DRAWN_CANVASES = """() => {
  const found = [];
  const walk = (root) => root.querySelectorAll('*').forEach(el => {
    if (el.tagName === 'CANVAS') found.push(el);
    if (el.shadowRoot) walk(el.shadowRoot);
  });
  walk(document);
  return found.filter(c => {
    if (!c.width || !c.height) return false;
    const ctx = c.getContext('2d');
    if (!ctx) return false;
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4 * 13) if (d[i] !== 0) return true;
    return false;
  }).length;
}"""


@pytest.fixture(scope="module")
def lesson_01(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("nbconvert")
    pytest.importorskip("jupyter_server_mathjax")
    out = tmp_path_factory.mktemp("lessons")
    [page] = load_tool("render_lessons").render([ROOT / "notebooks" / "01_two_dice.ipynb"], out)
    return page


def _offline(route) -> None:  # type: ignore[no-untyped-def]
    url = urlsplit(route.request.url)
    if url.scheme in ("file", "data", "blob") or url.hostname in ("127.0.0.1", "localhost"):
        route.continue_()
    else:
        route.abort()


def test_a_lesson_page_draws_its_figures_and_renders_its_mathematics_offline(lesson_01: Path, page) -> None:  # type: ignore[no-untyped-def]
    blocked: list[str] = []
    page.on("requestfailed", lambda request: blocked.append(request.url))
    page.route("**/*", _offline)
    page.goto(lesson_01.as_uri())
    figures = page.evaluate("() => document.querySelectorAll('.jp-OutputArea-output .bk-root, .jp-OutputArea-output [data-root-id]').length")
    page.wait_for_function(f"() => ({DRAWN_CANVASES})() >= 4", timeout=120_000)
    drawn = page.evaluate(DRAWN_CANVASES)
    page.wait_for_function("() => document.querySelectorAll('.MathJax, .MathJax_SVG, .MathJax_CHTML').length >= 5",
                           timeout=120_000)
    page.wait_for_function("() => !document.querySelector('#MathJax_Message') || "
                           "getComputedStyle(document.querySelector('#MathJax_Message')).display === 'none'",
                           timeout=60_000)
    text = page.evaluate("() => document.body.innerText")
    assert "\\tfrac" not in text and "$\\sqrt" not in text, "raw TeX on the page"
    assert "Lesson 1: Two dice" in text
    assert not [u for u in blocked if "mathjax" in u.lower() or "bokeh" in u.lower() or "panel" in u.lower()], blocked
    print(f"{figures} figure roots, {drawn} canvases drawn, blocked: {blocked}")
