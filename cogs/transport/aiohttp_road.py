"""Interaction-token requests on an ``aiohttp.ClientSession`` of their own (public options only)."""

from __future__ import annotations

from typing import Final

import aiohttp
from yarl import URL

from .road import KEEPALIVE_SECONDS, Reply

_JSON: Final = {"Content-Type": "application/json"}


class AiohttpRoad:
    """Requests on an ``aiohttp.ClientSession`` of the road's own, tuned with aiohttp's public options:
    no cookie jar, no ``Accept-Encoding`` (answers come plain, not decompressed), one ``ClientTimeout``,
    the URL built without parsing, the body given as bytes with its content type."""

    def __init__(self, base: str, user_agent: str, *, proxy: str | None, proxy_auth: aiohttp.BasicAuth | None,
                 timeout: float, limit: int) -> None:
        self.root = URL(base)
        self.user_agent = user_agent
        self.proxy = proxy
        self.proxy_auth = proxy_auth
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self.limit = limit
        self.session: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        session = self.session
        if session is None or session.closed:
            connector = aiohttp.TCPConnector(limit=self.limit, keepalive_timeout=KEEPALIVE_SECONDS,
                                             ttl_dns_cache=300)
            session = self.session = aiohttp.ClientSession(
                connector=connector, timeout=self.timeout, headers={"User-Agent": self.user_agent},
                skip_auto_headers=("Accept-Encoding",), auto_decompress=False,
                cookie_jar=aiohttp.DummyCookieJar(), trust_env=False)
        return session

    async def exchange(self, method: str, target: str, body: bytes | None, content_type: str | None) -> Reply:
        path, _, query = target.partition("?")
        root = self.root
        url = URL.build(scheme=root.scheme, host=root.raw_host or "", port=root.explicit_port, path=path,
                        query_string=query, encoded=True)
        headers = None
        if content_type is not None:
            headers = _JSON if content_type == "application/json" else {"Content-Type": content_type}
        async with self._session().request(method, url, data=body, headers=headers, proxy=self.proxy,
                                           proxy_auth=self.proxy_auth) as response:
            return Reply(response.status, response.reason or "", response.headers, await response.read())

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()

