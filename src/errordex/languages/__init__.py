"""The languages errordex reads, one package each (``languages/<name>/``)."""
