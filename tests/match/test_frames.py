"""Ranking rules that read the traceback's frames, on small hand-made indexes."""

from errordex.languages.python.runtime import runtime_form
from errordex.match.explain import RaiseFrame, first_answer, rank
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


def json_like() -> MemoryIndex:
    """A message that a pure-Python fallback raises (and compiled code too)."""
    idx = MemoryIndex()
    idx.add(
        "delim", "o/j",
        fmt("Expecting ':' delimiter: line ", Hole("", "%d"), syntax="py-percent"),
        ("JSONDecodeError",), sites=(("decoder.py", 174, None),),
    )  # fmt: skip
    idx.add("bare", "o/j", Template.empty(), ("TypeError",), sites=(("core.py", 2204, None),))
    return idx


def test_first_answer_is_the_entry_at_the_raise_frame() -> None:
    got = rank(
        "'c' is not one of 'a', 'b'.",
        click_like(),
        exception_type="click.exceptions.BadParameter",
        frames=frames(("c/types.py", 472), ("c/types.py", 222)),
    )
    answer = first_answer(got, RaiseFrame("c/types.py", 222, raise_statement=True))
    assert answer is not None and answer.entry_id == "choice"


def test_no_entry_answers_when_the_raise_frame_is_a_line_that_raises_nothing() -> None:
    # the C scanner raised it from the call at decoder.py:353; the fallback's
    # raise at decoder.py:174 has the same text but is not where it came from
    got = rank(
        "Expecting ':' delimiter: line 1",
        json_like(),
        exception_type="json.decoder.JSONDecodeError",
        frames=frames(("decoder.py", 337), ("decoder.py", 353)),
    )
    assert got[0].entry_id == "delim" and got[0].exact
    raise_frame = RaiseFrame("decoder.py", 353, raise_statement=False, same_version=True)
    assert first_answer(got, raise_frame) is None


def test_an_entry_in_the_raise_frames_file_answers_when_the_version_may_differ() -> None:
    got = rank(
        "Expecting ':' delimiter: line 1",
        json_like(),
        exception_type="json.decoder.JSONDecodeError",
        frames=frames(("decoder.py", 180)),
    )
    moved = RaiseFrame("decoder.py", 180, raise_statement=False, same_version=None)
    answer = first_answer(got, moved)
    assert answer is not None and answer.entry_id == "delim"
    other = RaiseFrame("scanner.py", 180, raise_statement=False, same_version=None)
    assert first_answer(got, other) is None


def test_an_empty_template_never_wins_on_its_exception_type() -> None:
    got = rank(
        "'float' object is not subscriptable",
        json_like(),
        exception_type="TypeError",
        frames=frames(("starlette/requests.py", 88)),
    )
    assert all(m.entry_id != "bare" for m in got)
    assert first_answer(got, None) is None


def test_a_verified_message_without_frames_is_the_answer() -> None:
    got = rank("Expecting ':' delimiter: line 3", json_like(), exception_type="JSONDecodeError")
    answer = first_answer(got, None)
    assert answer is not None and answer.entry_id == "delim"


def emulating_index() -> MemoryIndex:
    """A raise statement that copies the interpreter's own message form."""
    idx = MemoryIndex()
    idx.add(
        "state", "o/s",
        fmt("'", Hole("", "{}"), "' object has no attribute '", Hole("", "{}"), "'"),
        ("AttributeError",), sites=(("s/datastructures.py", 699, None),),
    )  # fmt: skip
    return idx


def test_a_message_in_the_runtimes_own_form_is_not_answered_by_its_text_alone() -> None:
    message = "'NoneType' object has no attribute 'write'"
    assert runtime_form(message, "AttributeError") and runtime_form(message, None)
    got = rank(message, emulating_index(), exception_type="AttributeError")
    assert got[0].entry_id == "state" and got[0].confident
    assert first_answer(got, None, runtime_message=True) is None
    # at its raise frame, the statement is the answer all the same
    got = rank(
        message,
        emulating_index(),
        exception_type="AttributeError",
        frames=frames(("s/datastructures.py", 699)),
    )
    answer = first_answer(got, RaiseFrame("s/datastructures.py", 699, True), True)
    assert answer is not None and answer.entry_id == "state"


def test_a_librarys_own_message_is_not_a_runtime_form() -> None:
    assert not runtime_form("lex() argument must be a lexer instance, not a class", "TypeError")
    assert not runtime_form("'x' object has no attribute 'y'", "mylib.errors.AttributeError")
    assert runtime_form("'>=' not supported between instances of 'NoneType' and 'int'", "TypeError")


def test_a_word_of_an_example_programs_expect_found_inside_a_message_is_no_answer() -> None:
    # clap's examples `.expect("required")`, inside the library's printed
    # "The following required arguments were not provided:"
    idx = MemoryIndex()
    idx.add(
        "example", "o/clap", Template.literal("required"), (),
        sites=(("examples/git.rs", 66, None),),
    )  # fmt: skip
    message = "The following required arguments were not provided:"
    got = rank(message, idx)
    assert got and got[0].entry_id == "example" and got[0].partial
    assert first_answer(got, None) is None
    # the same word in the library's own code is still the answer
    lib = MemoryIndex()
    lib.add("own", "o/clap", Template.literal("required"), (), sites=(("src/parser.rs", 9, None),))
    got = rank(message, lib)
    answer = first_answer(got, None)
    assert answer is not None and answer.entry_id == "own"
