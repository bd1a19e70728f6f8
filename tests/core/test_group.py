from errordex.group import entry_id, group
from errordex.model import ThrowSite
from errordex.template import Hole, Template, Text


def site(path: str, line: int, t: Template, **kw: object) -> ThrowSite:
    return ThrowSite(
        path=path,
        line=line,
        column=1,
        end_line=line,
        language="python",
        kind="raise",
        template=t,
        **kw,  # type: ignore[arg-type]
    )


def test_same_normalized_message_is_one_entry_with_every_site() -> None:
    a = site(
        "a.py",
        3,
        Template.of("py-fstring", Text("bad "), Hole("x", "{x}")),
        exception_type="ValueError",
    )
    b = site(
        "b.py",
        9,
        Template.of("py-percent", Text("bad "), Hole("x", "%s")),
        exception_type="TypeError",
    )
    [entry] = group("o/r", [b, a])
    assert [s.path for s in entry.sites] == ["a.py", "b.py"]
    assert entry.exception_types == ("ValueError", "TypeError")
    assert entry.id == entry_id("o/r", "bad {}")


def test_id_is_stable_when_code_moves() -> None:
    t = Template.literal("boom")
    [e1] = group("o/r", [site("a.py", 3, t)])
    [e2] = group("o/r", [site("z/a.py", 300, t)])
    assert e1.id == e2.id and len(e1.id) == 16


def test_dynamic_messages_are_not_merged_across_functions() -> None:
    t = Template.runtime("msg")
    entries = group("o/r", [site("a.py", 3, t, symbol="f"), site("a.py", 9, t, symbol="g")])
    assert len(entries) == 2


def test_test_sites_come_last() -> None:
    t = Template.literal("boom")
    [e] = group("o/r", [site("a.py", 1, t, in_test=True), site("b.py", 2, t)])
    assert [s.in_test for s in e.sites] == [False, True]
    assert len(e.catalog_sites) == 1


def test_title_of_a_runtime_message_cuts_a_long_expression() -> None:
    from errordex.runtime import title

    expr = "f'ORM mapped entity {attr}' % (\n    a,\n    b,\n" + "x" * 200 + ")"
    [e] = group("o/r", [site("a.py", 3, Template.runtime(expr), exception_type="ArgumentError")])
    shown = title(e)
    assert shown.startswith("ArgumentError (message built at run time from f'ORM mapped entity")
    assert "\n" not in shown and len(shown) < 120 and shown.endswith("…)")


def test_title_of_many_lines_stops_at_the_lines_that_show_values() -> None:
    from errordex.runtime import title

    # packaging's ParserSyntaxError: the message, then the source and its marker
    t = Template.of(
        "py-fstring",
        Text("Expected comma between extra names\n    "),
        Hole("self.source", ""),
        Text("\n    ^"),
    )
    [e] = group("o/r", [site("a.py", 3, t, exception_type="ParserSyntaxError")])
    assert title(e) == "Expected comma between extra names …"
    # a paragraph wrapped over lines reads as one
    wrapped = Template.literal("\nRetry limit exceeded while trying\nto reconnect.\n")
    [e] = group("o/r", [site("a.py", 3, wrapped, exception_type="E")])
    assert title(e) == "Retry limit exceeded while trying to reconnect."


def test_a_related_error_is_listed_by_its_one_line_title() -> None:
    from errordex.runtime import one_line

    # a page's related errors hold messages as text: each is listed as a title
    shown = "Invalid quoted string\n    {self.source}\n    {marker}^"
    assert one_line(shown) == "Invalid quoted string …"
    assert one_line("one line") == "one line"


def test_a_bare_panic_is_the_runtimes_explicit_panic_and_an_empty_one_is_apart() -> None:
    from errordex.languages.rust.extract import extract
    from errordex.runtime import printed_form, title

    code = (
        "fn a() { panic!(); }\n"
        'fn b() { panic!("explicit panic"); }\n'
        'fn c() { panic!(""); }\n'
        "fn d() { std::panic!() }\n"
    )
    sites = extract("src/lib.rs", code).sites
    assert [s.template.is_empty for s in sites] == [True, False, True, True]  # the source's text
    by_title = {title(e): [s.line for s in e.sites] for e in group("o/r", sites)}
    assert by_title == {"explicit panic": [1, 2, 4], "(an empty message)": [3]}
    assert printed_form(sites[0]).endswith("src/lib.rs:1:10:\nexplicit panic")
