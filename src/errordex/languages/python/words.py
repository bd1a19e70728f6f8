"""Words ``verify`` accepts in Python code besides the repository's own names."""

import builtins
import keyword

PY_WORDS = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | {"self", "cls", "_"}
