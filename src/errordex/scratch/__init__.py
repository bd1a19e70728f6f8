"""One index run's scratch files (spilled lists, site groups), on disk in TMPDIR.

They live only as long as the run; the persistent store is ``errordex.store``.
"""
