from __future__ import annotations

from errordex.web.urls import Urls


def test_served_urls_are_absolute_under_the_base() -> None:
    u = Urls("/")
    assert u.home() == "/"
    assert u.repo("o/r") == "/o/r"
    assert u.repo("o/r", page=2, kind="panic", q="a b") == "/o/r?kind=panic&q=a+b&page=2"
    assert u.repo_json("o/r", page=3) == "/o/r.json?page=3"
    assert u.error("o/r", "0123456789abcdef") == "/o/r/errors/0123456789abcdef"
    assert u.error("o/r", "ab", {"left": "20"}) == "/o/r/errors/ab?v.left=20"
    assert u.error_json("o/r", "ab") == "/o/r/errors/ab.json"
    assert u.search("x&y") == "/search?q=x%26y"
    assert u.api_repo_errors("o/r", page=2) == "/api/repos/o/r/errors?page=2"
    assert Urls("/errordex/").error("o/r", "ab") == "/errordex/o/r/errors/ab"


def test_static_urls_are_relative_and_name_index_html() -> None:
    u = Urls("", static=True).for_depth(4)
    assert u.home() == "../../../../index.html"
    assert u.repo("o/r") == "../../../../o/r/index.html"
    assert u.repo("o/r", page=2, kind="ignored") == "../../../../o/r/page/2/index.html"
    assert u.repo_json("o/r", page=2) == "../../../../o/r/page/2.json"
    assert u.error("o/r", "ab", {"x": "1"}) == "../../../../o/r/errors/ab/index.html"
    assert u.static_file("style.css") == "../../../../static/style.css"
    canon = u.with_base("https://x.org/docs/", index_html=False)
    assert canon.error("o/r", "ab") == "https://x.org/docs/o/r/errors/ab/"


def test_path_segments_are_quoted() -> None:
    assert Urls("/").repo("o/r?x#y") == "/o/r%3Fx%23y"
    assert Urls("/").error("o/r", "../x") == "/o/r/errors/..%2Fx"
