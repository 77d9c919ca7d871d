"""The web table: the table service's tables as a live page, served with aiohttp.

A Discord-free adapter over :class:`~baloot.tables.TableService`, like the cogs are the Discord
one: :mod:`.server` (the page, the WebSocket, the Activity's sign-in), :mod:`.hub` (the service's
listener that sends each page its seat's view), :mod:`.frames` (the protocol), :mod:`.rooms`
(which table a page plays at and how people sit), :mod:`.oauth` (Discord's OAuth2 code exchange).
"""
