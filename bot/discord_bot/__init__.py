"""The Discord front end: a thin adapter from slash commands and buttons to the game service.

``app`` builds and runs the bot, ``commands`` holds the ``/reel`` group,
``views`` the board buttons and ``leaderboards`` the paging buttons (both
survive restarts), ``embeds`` the pure builders of what a message shows, and
``replies`` answers interactions in time, never pinging anyone.
"""
