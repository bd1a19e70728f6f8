"""Rust trait impls a user never calls by name (pure): an operator's
(``map[key]`` runs ``<IndexMap as Index<&Q>>::index``), written as the
operator, a std conversion's (``s.parse::<Version>()`` runs
``<Version as FromStr>::from_str``), written as that call when nothing
else reaches it, and a formatting trait's, which only prints a value built
elsewhere (``<ErrorCode as Display>::fmt``)."""

from __future__ import annotations

import re

#: a trait impl's method: ``<IndexMap as Index<&Q>>::index`` -> (IndexMap, Index, index)
_TRAIT_METHOD = re.compile(r"^<\s*([\w:]+)\s+as\s+(?:[\w:]*::)?(\w+)\s*(?:<.*>)?\s*>::(\w+)$")
#: the std traits a user calls by writing an operator, as written on a value of the type
_SYNTAX = {
    "Index": "{t}[…]",
    "IndexMut": "{t}[…] = …",
    "Deref": "*{t}",
    "DerefMut": "*{t} = …",
    "Neg": "-{t}",
    "Not": "!{t}",
    "PartialEq": "{t} == …",
    "PartialOrd": "{t} < …",
    **{
        op: "{t} " + sign + " …"
        for op, sign in {
            "Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Rem": "%", "BitAnd": "&",
            "BitOr": "|", "BitXor": "^", "Shl": "<<", "Shr": ">>", "AddAssign": "+=",
            "SubAssign": "-=", "MulAssign": "*=", "DivAssign": "/=", "RemAssign": "%=",
        }.items()
    },
}  # fmt: skip
#: the method of an operator trait not named after it
_METHOD_OF = {"PartialEq": "eq", "PartialOrd": "partial_cmp"}
#: std's conversion traits, by their method, as a user calls them on the type
#: (``"1.2.3".parse::<Version>()`` runs ``<Version as FromStr>::from_str``)
_CALLED = {
    "FromStr": ("from_str", "….parse::<{t}>()"),
    "TryFrom": ("try_from", "{t}::try_from(…)"),
    "Default": ("default", "{t}::default()"),
}
#: the traits whose method only prints a value: nobody calls it to get an error
_FORMATTING = frozenset({"Display", "Debug", "LowerHex", "UpperHex", "Binary", "Octal"})


#: Python's special methods a user runs by writing an operator
_DUNDER = {
    "__getitem__": "{t}[…]",
    "__setitem__": "{t}[…] = …",
    "__delitem__": "del {t}[…]",
    "__contains__": "… in {t}",
    "__add__": "{t} + …",
    "__sub__": "{t} - …",
    "__mul__": "{t} * …",
    "__truediv__": "{t} / …",
    "__call__": "{t}(…)(…)",
    "__getattr__": "{t}.…",
    "__setattr__": "{t}.… = …",
    "__delattr__": "del {t}.…",
    "__iter__": "iter({t})",
    "__next__": "next({t})",
    "__len__": "len({t})",
    "__bool__": "bool({t})",
    "__str__": "str({t})",
    "__int__": "int({t})",
    "__float__": "float({t})",
    "__index__": "operator.index({t})",
    "__hash__": "hash({t})",
    "__enter__": "with {t}",
    "__aenter__": "async with {t}",
    "__floordiv__": "{t} // …",
    "__mod__": "{t} % …",
    "__pow__": "{t} ** …",
    "__matmul__": "{t} @ …",
    "__lt__": "{t} < …",
    "__le__": "{t} <= …",
    "__gt__": "{t} > …",
    "__ge__": "{t} >= …",
    "__neg__": "-{t}",
    "__eq__": "{t} == …",
    "__ne__": "{t} != …",
    "__and__": "{t} & …",
    "__or__": "{t} | …",
    "__xor__": "{t} ^ …",
    "__lshift__": "{t} << …",
    "__rshift__": "{t} >> …",
    "__iadd__": "{t} += …",
    "__isub__": "{t} -= …",
    "__invert__": "~{t}",
    "__abs__": "abs({t})",
    "__round__": "round({t})",
    "__repr__": "repr({t})",
    "__format__": "format({t}, …)",
    "__bytes__": "bytes({t})",
    "__reversed__": "reversed({t})",
    "__await__": "await {t}",
    "__aiter__": "async for … in {t}",
    "__anext__": "anext({t})",
}

#: methods the runtime calls on a value with no call of the user's naming
#: them, as "what runs it" for a sentence's subject: the end of a ``with``
#: block, garbage collection, a drop (Rust's ``Drop``)
_HOOKS = {
    "__exit__": "the end of a `with {t}` block",
    "__aexit__": "the end of an `async with {t}` block",
    "__del__": "the garbage collection of a `{t}`",
    "Drop": "dropping a `{t}`",
}


def by_syntax(symbol: str) -> str | None:
    """An operator trait's method (Rust) or special method (Python) as a
    user writes the operator, else None.

    >>> by_syntax("<IndexMap as Index<&Q>>::index"), by_syntax("<Value as ops::IndexMut<I>>::index_mut")
    ('IndexMap[…]', 'Value[…] = …')
    >>> by_syntax("<Tensor as Add<f64>>::add"), by_syntax("<Bytes as Buf>::advance")
    ('Tensor + …', None)
    >>> by_syntax("<usize as Index>::index_or_insert")  # not std's Index


    >>> by_syntax("xarray.Dataset.__getitem__"), by_syntax("Dataset.isel")
    ('xarray.Dataset[…]', None)
    """
    owner, _, method = symbol.rpartition(".")
    if "::" not in symbol and owner and method in _DUNDER:
        return _DUNDER[method].format(t=owner)  # as imported: `candle.nn.Sequential * …`
    m = _TRAIT_METHOD.match(symbol)
    if m is None:
        return None
    trait, method, t = m.group(2), m.group(3), m.group(1).rsplit("::", 1)[-1]
    if trait not in _SYNTAX or method != _METHOD_OF.get(trait, _operator_method(trait)):
        return None  # a crate's own trait of the name (serde_json's sealed `Index`)
    return _SYNTAX[trait].format(t=t)


def hook(symbol: str) -> str | None:
    """What runs a method the runtime calls by itself, written as the
    subject of a sentence, else None: nobody "called" it.

    >>> hook("GuardedIterator.__del__"), hook("<InnerClientHandle as Drop>::drop")
    ('the garbage collection of a `GuardedIterator`', 'dropping a `InnerClientHandle`')
    >>> hook("Context.__exit__"), hook("Context.close")
    ('the end of a `with Context` block', None)
    """
    owner, _, method = symbol.rpartition(".")
    if "::" not in symbol and owner and method in _HOOKS:
        return _HOOKS[method].format(t=owner.rsplit(".", 1)[-1])
    m = _TRAIT_METHOD.match(symbol)
    if m is not None and m.group(2) == "Drop" and m.group(3) == "drop":
        return _HOOKS["Drop"].format(t=m.group(1).rsplit("::", 1)[-1])
    return None


def conversion_call(symbol: str) -> str | None:
    """A std conversion trait's method as a user calls it on the type, else
    None: for an impl no function of the crate is known to call.

    >>> conversion_call("<Version as FromStr>::from_str"), conversion_call("<Op as TryFrom<u8>>::try_from")
    ('….parse::<Version>()', 'Op::try_from(…)')
    >>> conversion_call("<Version as FromStr>::other") is None
    True
    """
    m = _TRAIT_METHOD.match(symbol)
    if m is None or m.group(2) not in _CALLED or _CALLED[m.group(2)][0] != m.group(3):
        return None
    return _CALLED[m.group(2)][1].format(t=m.group(1).rsplit("::", 1)[-1])


def _operator_method(trait: str) -> str:
    """The method std's operator trait declares: ``index_mut`` of
    ``IndexMut``, ``add_assign`` of ``AddAssign``, ``bitand`` of ``BitAnd``.

    >>> [_operator_method(t) for t in ("Index", "IndexMut", "AddAssign", "BitAnd")]
    ['index', 'index_mut', 'add_assign', 'bitand']
    """
    return re.sub(r"(?<=[a-z])(Assign|Mut)$", r"_\1", trait).lower()


def formats(symbol: str) -> bool:
    """Whether ``symbol`` is a formatting trait's method (``<E as fmt::Display>::fmt``).

    >>> formats("<ErrorCode as core::fmt::Display>::fmt"), formats("<A as Debug>::fmt")
    (True, True)
    >>> formats("<Bytes as Buf>::advance")
    False
    """
    m = _TRAIT_METHOD.match(symbol)
    return m is not None and m.group(2) in _FORMATTING


def formatted_type(symbol: str) -> tuple[str, str] | None:
    """(type, trait) of a formatting trait's method, else None.

    >>> formatted_type("<ErrorCode as core::fmt::Display>::fmt")
    ('ErrorCode', 'Display')
    """
    m = _TRAIT_METHOD.match(symbol)
    if m is None or m.group(2) not in _FORMATTING:
        return None
    return m.group(1).rsplit("::", 1)[-1], m.group(2)
