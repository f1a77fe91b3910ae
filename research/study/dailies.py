"""The family's dailies over a run of dates: which are proven winnable, after how many
candidates, and at what cost (docs/daily.md, "A daily for each game of the family").

    python research/study/dailies.py [--start 2026-12-06] [--days 30] [CODE ...]

Each date's daily is found exactly as the bot finds it (``bot.service.daily_rules.find_daily_deal``
with the candidates the service gives the game, ``daily_budget``), so the deals printed
are the bot's. Prints one line per game: dates proven, candidates tried, par, CPU seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date, timedelta

from bot.service.daily_rules import daily_budget, find_daily_deal
from engine.daily import candidate_numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--start", type=date.fromisoformat, default=date(2026, 12, 6))
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("codes", nargs="*", default=["rp", "tu", "bj", "bp"])
    args = parser.parse_args()
    days = [args.start + timedelta(days=i) for i in range(args.days)]
    for code in args.codes:
        count = daily_budget(code)[0]
        tried, pars, cpu, unproven = [], [], [], []
        for day in days:
            started = time.process_time()
            daily = find_daily_deal(day, candidates=count, variant=code)
            cpu.append(time.process_time() - started)
            numbers = candidate_numbers(day, count, code)
            if daily.par is None:
                unproven.append(day.isoformat())
            else:
                tried.append(numbers.index(daily.deal_number) + 1)
                pars.append(daily.par)
        print(
            f"{code}: {len(days) - len(unproven)} of {len(days)} dates proven"
            + (f" (unproven: {', '.join(unproven)})" if unproven else "")
            + (
                f"; candidates tried {min(tried)}-{max(tried)} (median "
                f"{statistics.median(tried):g})"
                if tried
                else ""
            )
            + (f", par {min(pars)}-{max(pars)} moves" if pars else "")
            + f"; CPU a date {min(cpu):.2f}-{max(cpu):.2f} s (median {statistics.median(cpu):.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
