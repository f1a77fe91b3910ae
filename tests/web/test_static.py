"""The built page as the server hands it out: index.html never cached, its hashed assets
cached for a year, all of it small (the issue's budget: 250 KB, 80 KB gzipped)."""

from __future__ import annotations

import gzip
import re

from webserver import Serve

from bot.service import GameService
from bot.web.app import LONG_CACHE, STATIC

BUDGET = 250_000
BUDGET_GZIPPED = 80_000


def asset_names() -> list[str]:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    return re.findall(r'"/assets/([\w.]+)"', page)


def test_the_page_names_one_script_and_one_style_by_their_hashes() -> None:
    names = asset_names()
    assert sorted(n.rsplit(".", 1)[1] for n in names) == ["css", "js"]
    assert all(re.fullmatch(r"app\.[0-9a-f]{12}\.(js|css)", n) for n in names)
    assert sorted(p.name for p in (STATIC / "assets").iterdir()) == sorted(names)


def test_the_bundle_is_within_its_budget() -> None:
    files = [STATIC / "index.html", *(STATIC / "assets" / n for n in asset_names())]
    raw = sum(len(f.read_bytes()) for f in files)
    packed = sum(len(gzip.compress(f.read_bytes(), 9)) for f in files)
    assert raw < BUDGET and packed < BUDGET_GZIPPED, (raw, packed)


async def test_assets_are_cached_for_a_year_and_the_page_never(
    serve: Serve, service: GameService
) -> None:
    served = await serve()
    async with served.http.get(served.base + "/") as got:
        assert got.headers["Cache-Control"] == "no-cache"
        page = await got.text()
    for name in asset_names():
        assert f"/assets/{name}" in page
        async with served.http.get(f"{served.base}/assets/{name}") as got:
            assert got.status == 200 and got.headers["Cache-Control"] == LONG_CACHE
            kind = "text/css" if name.endswith(".css") else "javascript"
            assert kind in got.headers["Content-Type"]
            assert await got.read() == (STATIC / "assets" / name).read_bytes()
    async with served.http.get(served.base + "/assets/..%2Findex.html") as got:
        assert got.status == 404
