"""The PostgreSQL store (``--db postgresql://…``): one database that several
web processes, index runs and queue workers share.

It has the same tables as SQLite's (``migrations.py``), the same reads
(``store/reads.py``), the same matcher's postings (``store/postings.py``)
and the same snapshot semantics: a snapshot becomes current in one
transaction (``writer.py``), and a crashed or cut-off index leaves the
previous one current. Reads borrow connections from a psycopg pool, so one
store serves every thread of a process.

``errordex.store.open_store`` imports ``store.py`` only for a
``postgresql://`` URL, so psycopg is needed (and loaded) only then.
"""
