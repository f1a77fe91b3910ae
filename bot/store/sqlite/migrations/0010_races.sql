-- Version 10: races (`/reel race`, docs/races.md). A race is opened in a channel with
-- a deal, a time limit and a capacity; its racers each play the deal as a game of
-- their own, kept here (never in current_games), with their place once it is over.
-- Shipped: never edit this file; a change of schema is a new file with the next
-- number (docs/storage.md, "Migrations"). The statements run in order, in one
-- transaction with the version they bring the file to.

CREATE TABLE races (
    race_id     INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    deal_number INTEGER NOT NULL,
    limit_s     INTEGER NOT NULL CHECK (limit_s > 0),
    capacity    INTEGER NOT NULL CHECK (capacity >= 2),
    state       TEXT    NOT NULL CHECK (state IN ('lobby', 'running', 'over', 'cancelled')),
    created_at  TEXT    NOT NULL,
    starts_at   TEXT    NOT NULL,
    started_at  TEXT,
    ended_at    TEXT,
    message_id  INTEGER
);

CREATE INDEX races_open ON races (state) WHERE state IN ('lobby', 'running');

CREATE TABLE racers (
    race_id    INTEGER NOT NULL REFERENCES races (race_id),
    user_id    INTEGER NOT NULL,
    joined_at  TEXT    NOT NULL,
    status     TEXT    NOT NULL
               CHECK (status IN ('joined', 'racing', 'won', 'left', 'timed_out')),
    moves      TEXT    NOT NULL DEFAULT '',
    version    INTEGER NOT NULL DEFAULT 0,
    undo_count INTEGER NOT NULL DEFAULT 0,
    score      INTEGER NOT NULL DEFAULT 0,
    move_count INTEGER NOT NULL DEFAULT 0,
    elapsed_s  REAL    NOT NULL DEFAULT 0,
    place      INTEGER,
    PRIMARY KEY (race_id, user_id)
);

CREATE INDEX racers_by_user ON racers (user_id, race_id);
