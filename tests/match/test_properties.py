"""Round trip: format a random template with random values, match, get the values back."""

from hypothesis import given, settings
from hypothesis import strategies as st

from errordex.match.compile import MAX_ATTEMPTS, MatchStats, compile_template, normalize
from errordex.template import Hole, Part, Template, Text

# Literal text always holds a lowercase letter from g-z; no value ever does, so
# the place of every chunk is unambiguous.
LETTERS = "ghijkmnopqrstuvwxyz"
literal = st.tuples(
    st.text(alphabet=LETTERS + " =;!\n", max_size=6),
    st.sampled_from(LETTERS),
    st.text(alphabet=LETTERS + " =;!\n", max_size=6),
).map("".join)

word = st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ0123456789._/-", min_size=1, max_size=10)
integer = st.integers(min_value=-(10**12), max_value=10**12).map(str)
floating = st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda f: f"{f:.2f}")
hexa = st.integers(min_value=0, max_value=2**64).map(lambda n: f"{n:x}")
quoted = st.text(alphabet="ABC 123,", max_size=8).map(lambda s: f'"{s}"')
name = st.text(alphabet="ABCDEFGH", min_size=1, max_size=5)
debug = st.recursive(
    st.one_of(name, integer, quoted, quoted.map(lambda s: "'" + s[1:-1] + "'")),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(name, inner).map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(name, name, inner).map(lambda p: f"{p[0]} {{ {p[1]}: {p[2]} }}"),
    ),
    max_leaves=6,
)

SPECS: list[tuple[str, st.SearchStrategy[str]]] = [
    ("{}", word),
    ("%s", word),
    ("{x}", word),
    ("%v", word),
    ("{path}", word),
    ("%d", integer),
    ("{:d}", integer),
    ("%i", integer),
    ("%.2f", floating),
    ("{:.2f}", floating),
    ("%x", hexa),
    ("{:?}", debug),
    ("%r", debug),
    ("{x!r}", debug),
    ("%q", quoted),
]


@st.composite
def formatted(draw: st.DrawFn) -> tuple[Template, str, list[str]]:
    n = draw(st.integers(min_value=1, max_value=6))
    parts: list[Part] = []
    values: list[str] = []
    if draw(st.booleans()):
        parts.append(Text(draw(literal)))
    for i in range(n):
        if i:
            parts.append(Text(draw(literal)))
        spec, strategy = draw(st.sampled_from(SPECS))
        parts.append(Hole(spec.strip("{}%").split("!")[0] if "x" in spec else "", spec))
        values.append(draw(strategy))
    if draw(st.booleans()) or n == 1:
        parts.append(Text(draw(literal)))
    t = Template.of("rust-fmt", *parts)
    it = iter(values)
    message = "".join(p.text if isinstance(p, Text) else next(it) for p in t.parts)
    return t, message, values


@settings(max_examples=400, deadline=None)
@given(formatted())
def test_format_then_match_recovers_the_values(case: tuple[Template, str, list[str]]) -> None:
    t, message, values = case
    m = compile_template(t).match(message)
    assert m is not None, (t.display(), message)
    assert [v for _, v in m.values] == [normalize(v) for v in values]
    assert m.coverage > 0


@settings(max_examples=200, deadline=None)
@given(formatted(), st.text(max_size=200))
def test_match_on_any_text_is_bounded(case: tuple[Template, str, list[str]], junk: str) -> None:
    t, message, _ = case
    stats = MatchStats()
    matcher = compile_template(t)
    for text in (junk, message + junk, junk + message, message[: len(message) // 2]):
        matcher.match(text, stats=stats)
        matcher.match(text, partial=True, stats=stats)
    assert stats.attempts <= 8 * MAX_ATTEMPTS


@settings(max_examples=200, deadline=None)
@given(formatted(), st.text(alphabet=LETTERS.upper() + " :", max_size=20))
def test_partial_match_finds_the_message_inside_more_text(
    case: tuple[Template, str, list[str]], prefix: str
) -> None:
    t, message, _ = case
    m = compile_template(t).match(prefix + ": " + message, partial=True)
    assert m is not None
