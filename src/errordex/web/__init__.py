"""The web site, its JSON API and the static export.

- ``app.create_app(store)``: the ASGI app (FastAPI) for ``errordex serve``;
- ``server.serve(store, host, port)``: run it with uvicorn;
- ``export.export_site(store, out_dir)``: the same pages as a static site.
"""
