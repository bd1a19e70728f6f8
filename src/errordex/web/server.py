"""Run the web app with uvicorn (``errordex serve``)."""

from __future__ import annotations

import uvicorn

from errordex.store.sqlite import SqliteStore
from errordex.web.app import create_app


def serve(store: SqliteStore, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve ``store`` until interrupted. Sync work runs in uvicorn's
    threadpool, each thread with its own SQLite connection."""
    app = create_app(store)
    uvicorn.run(app, host=host, port=port, log_level="info", access_log=False)
