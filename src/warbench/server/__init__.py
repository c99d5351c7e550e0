"""warbench serve: the FastAPI app, its SQLite store and the browser client (docs/server.md)."""
