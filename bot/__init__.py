"""The application around the engine: the game service, its SQLite store, and the
front ends that call it (the terminal game and the Discord bot)."""
