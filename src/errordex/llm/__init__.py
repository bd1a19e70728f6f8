"""The optional LLM writer: a model rewrites a page's prose from its fact
sheet, and every section it writes is checked against the commit before it
is shown (``check``); one that fails keeps the static text.

    config   where the endpoint is (flags, ``ERRORDEX_LLM_*``, the config file)
    client   an OpenAI-compatible chat completions client: retries, backoff,
             rate limit, streaming (the only module here that does I/O)
    prompt   the fact sheet a page is built from, its hash, the answer's schema
    answer   the model's JSON, read tolerantly
    check    each section against the snapshot (``verify``'s checks and more)
    prose    checked prose laid over the static analysis, and kept in the store
    batch    ``errordex write``: many pages, with concurrency and a token budget
"""
