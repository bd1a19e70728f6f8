"""Ranking rules that read the traceback's frames, on small hand-made indexes."""

from errordex.match.explain import rank
from errordex.match.index import MemoryIndex, type_names
from errordex.paste import Frame
from errordex.template import Hole, Template

from .conftest import fmt


def frames(*locs: tuple[str, int]) -> tuple[Frame, ...]:
    """Python order: outermost first, the raise frame last."""
    return tuple(Frame(f"/site-packages/{p}", n, None, "f") for p, n in locs)


def click_like() -> MemoryIndex:
    """``ParamType.fail`` raises any message; two callers pass theirs to it."""
    idx = MemoryIndex()
    via = "c/types.py:222 ParamType.fail"
    idx.add(
        "fail", "o/c", Template.runtime("message"), ("BadParameter",),
        sites=(("c/types.py", 222, None),),
    )  # fmt: skip
    idx.add(
        "choice", "o/c",
        fmt(Hole("value!r", "{value!r}"), " is not one of ", Hole("choices", "{choices}"), "."),
        ("BadParameter",), sites=(("c/types.py", 472, via),),
    )  # fmt: skip
    idx.add(
        "one", "o/c", fmt(Hole("value!r", "{value!r}"), " is not ", Hole("choice", "{choice}"), "."),
        ("BadParameter",), sites=(("c/types.py", 472, via),),
    )  # fmt: skip
    return idx


def test_forwarded_site_through_the_raise_frame_beats_the_forwarders_dynamic_entry() -> None:
    got = rank(
        "'c' is not one of 'a', 'b'.",
        click_like(),
        exception_type="click.exceptions.BadParameter",
        frames=frames(("c/types.py", 472), ("c/types.py", 222)),
    )
    ids = [m.entry_id for m in got]
    assert ids == ["choice", "one", "fail"]  # both callers verify; the closer one first
    assert got[0].frame_level == 2 and got[0].exact and got[0].specific


def test_dynamic_entry_loses_to_a_specific_template_without_frames() -> None:
    got = rank("'c' is not one of 'a', 'b'.", click_like(), exception_type="BadParameter")
    assert got[0].entry_id == "choice"


def test_the_frame_decides_between_two_entries_that_both_verify() -> None:
    idx = MemoryIndex()
    t = fmt(Hole("name", "{name}"))
    idx.add("a", "o/j", t, ("TemplateNotFound",), sites=(("j/loaders.py", 497, None),))
    idx.add("b", "o/j", t, ("TemplateNotFound",), sites=(("j/loaders.py", 454, None),))
    for line, want in ((454, "b"), (497, "a")):
        got = rank(
            "a.html",
            idx,
            exception_type="TemplateNotFound",
            frames=frames(("j/env.py", 10), ("j/loaders.py", line)),
        )
        assert got[0].entry_id == want


def test_a_site_in_the_stack_beats_one_elsewhere() -> None:
    idx = MemoryIndex()
    t = Template.literal("bad input")
    idx.add("here", "o/a", t, ("ValueError",), sites=(("a/mod.py", 30, None),))
    idx.add("there", "o/b", t, ("ValueError",), sites=(("b/mod.py", 30, None),))
    got = rank("bad input", idx, exception_type="ValueError", frames=frames(("a/mod.py", 30)))
    assert got[0].entry_id == "here"
    got = rank("bad input", idx, exception_type="ValueError", frames=frames(("b/mod.py", 30)))
    assert got[0].entry_id == "there"


def custom_error_index() -> MemoryIndex:
    """The message is the second argument (``PydanticCustomError('code', 'text')``):
    the entry's template is the code, which never verifies."""
    idx = MemoryIndex()
    idx.add(
        "custom", "o/p", Template.literal("ip_any_address"), ("PydanticCustomError",),
        sites=(("p/networks.py", 1237, None),),
    )  # fmt: skip
    idx.add(
        "other", "o/x", fmt(Hole("", "{}"), " is not a valid ", Hole("", "{}")),
        ("BadParameter",), sites=(("x/types.py", 604, None),),
    )  # fmt: skip
    return idx


def test_an_entry_at_the_raise_frame_ranks_first_even_if_its_template_does_not_verify() -> None:
    got = rank(
        "value is not a valid IPv4 or IPv6 address",
        custom_error_index(),
        exception_type="pydantic_core.PydanticCustomError",
        frames=frames(("p/networks.py", 1237)),
    )
    assert got[0].entry_id == "custom"
    assert got[0].located and not got[0].exact


def test_an_entry_at_the_raise_frame_whose_type_disagrees_is_not_located() -> None:
    # a TypeError raised while evaluating the raise statement's arguments
    got = rank(
        "value is not a valid IPv4 or IPv6 address",
        custom_error_index(),
        exception_type="TypeError",
        frames=frames(("p/networks.py", 1237)),
    )
    assert not got[0].located


def test_type_names_read_the_class_of_a_factory_call() -> None:
    assert "validationerror" in type_names("pydantic_core.ValidationError.from_exception_data")
    assert type_names("click.exceptions.BadParameter") == {"badparameter"}
