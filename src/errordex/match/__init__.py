"""Match pasted error text to the entries that produce it.

    compile   Template -> Matcher        verify one template against a message
    index     CandidateSource            MemoryIndex (in memory), StoreIndex (SQLite FTS5)
    explain   text -> [Explanation]      parse, retrieve, verify, rank

Pure except for ``StoreIndex``, which reads the store it is given.
"""

from __future__ import annotations

from errordex.match.compile import Matcher, MatchResult, compile_template
from errordex.match.explain import Explanation, Match, explain, rank
from errordex.match.index import Candidate, CandidateSource, MemoryIndex, StoreIndex

__all__ = [
    "Candidate",
    "CandidateSource",
    "Explanation",
    "Match",
    "MatchResult",
    "Matcher",
    "MemoryIndex",
    "StoreIndex",
    "compile_template",
    "explain",
    "rank",
]
