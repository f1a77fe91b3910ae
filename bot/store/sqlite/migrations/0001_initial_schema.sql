-- Version 1: current games, finished games, user settings.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

CREATE TABLE current_games (
    user_id     INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    variant     TEXT    NOT NULL,
    deal_number INTEGER NOT NULL,
    moves       TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    undo_count  INTEGER NOT NULL DEFAULT 0,
    started_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

CREATE TABLE finished_games (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,
    variant     TEXT    NOT NULL,
    deal_number INTEGER NOT NULL,
    outcome     TEXT    NOT NULL
                CHECK (outcome IN ('won', 'lost', 'abandoned', 'resigned')),
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    score       INTEGER NOT NULL,
    moves       TEXT    NOT NULL,
    undos       INTEGER NOT NULL,
    duration_s  INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    finished_at TEXT    NOT NULL,
    daily_date  TEXT
);

CREATE INDEX finished_games_by_user ON finished_games (user_id, finished_at);

CREATE INDEX finished_games_by_guild ON finished_games (guild_id, finished_at);

CREATE TABLE user_settings (
    user_id   INTEGER PRIMARY KEY,
    symbols   INTEGER NOT NULL DEFAULT 1 CHECK (symbols IN (0, 1)),
    auto_aces INTEGER NOT NULL DEFAULT 0 CHECK (auto_aces IN (0, 1))
);
