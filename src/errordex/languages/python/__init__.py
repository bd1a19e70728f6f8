"""Everything that knows Python: grammar, queries, extraction, scan, paste parser."""
