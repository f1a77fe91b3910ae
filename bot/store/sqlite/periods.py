"""The SQL of the period boards (weekly, seasonal) and of the streak reminder.

Kept beside ``queries.py`` in a module of its own; ``SQLiteStore.period_board``
and ``SQLiteStore.reminder_candidates`` run them (docs/daily.md says what they rank
and whom they pick).
"""

from __future__ import annotations

from typing import Final

# A player's scored dailies of the period, summed. The range on daily_date is read
# off finished_games_daily_rank (global) or finished_games_daily_guild_rank (a
# server: the server is checked in the index; named, since without statistics
# SQLite would rather read all the server's games by finished_games_by_guild):
# a week's or a month's dailies, then grouped and sorted in a temporary b-tree.
_PERIOD_RESULTS: Final = """
    SELECT user_id, count(*) AS dailies, sum(won) AS wins, sum(score) AS cards,
           sum(move_count) AS moves, max(assisted) AS assisted
    FROM finished_games INDEXED BY {index}
    WHERE variant = ? AND daily_date IS NOT NULL AND daily_date >= ? AND daily_date <= ?
      {guild}
    GROUP BY user_id
"""
PERIOD_ORDER: Final = "wins DESC, cards DESC, moves, dailies DESC, user_id"


def period_board_sql(by_guild: bool) -> tuple[str, str]:
    """(count, page) of a period board; parameters the game, the first and last dates (ISO), the
    server if ``by_guild``, and for the page LIMIT and OFFSET."""
    results = _PERIOD_RESULTS.format(
        index="finished_games_daily_guild_rank" if by_guild else "finished_games_daily_rank",
        guild="AND guild_id = ?" if by_guild else "",
    )
    count_sql = f"SELECT count(*) FROM ({results})"
    rows_sql = (
        "SELECT user_id, dailies, wins, cards, moves, assisted "
        f"FROM ({results}) ORDER BY {PERIOD_ORDER} LIMIT ? OFFSET ?"
    )
    return count_sql, rows_sql


# Players who asked for the reminder (of Virginia Reel's daily, the default game's),
# whose latest scored daily is yesterday's (their
# streak is alive and ends today if they don't play), and who have not started
# today's scored daily. Parameters: yesterday, today (ISO). One pass over the
# players with the setting on (user_settings has no index on it: a scan of the
# settings rows), each looked up by primary key.
REMINDER_CANDIDATES_SQL: Final = """
    SELECT s.user_id, t.daily_run FROM user_settings AS s
    JOIN player_totals AS t ON t.user_id = s.user_id AND t.variant = 'vr'
    WHERE s.reminders = 1 AND t.last_daily = ? AND t.daily_run >= 1
      AND NOT EXISTS (SELECT 1 FROM daily_attempts AS a
                      WHERE a.user_id = s.user_id AND a.variant = 'vr' AND a.daily_date = ?)
    ORDER BY s.user_id
"""
