"""Match pasted error text to the entries that produce it.

    compile   Template -> Matcher        verify one template against a message
    keys      message, Template -> words  the tokenisers and keys both indexes use
    index     CandidateSource            MemoryIndex (in memory)
    explain   text -> [Explanation]      parse, retrieve, verify, rank

Pure. The same retrieval over the store's postings is
``errordex.store.candidates.StoreIndex``, behind the store.
"""

from __future__ import annotations

from errordex.match.compile import Matcher, MatchResult, compile_template
from errordex.match.explain import Explanation, Match, explain, rank
from errordex.match.index import Candidate, CandidateSource, MemoryIndex

__all__ = [
    "Candidate",
    "CandidateSource",
    "Explanation",
    "Match",
    "MatchResult",
    "Matcher",
    "MemoryIndex",
    "compile_template",
    "explain",
    "rank",
]
