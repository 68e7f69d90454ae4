"""openpug's rules for Synapse, as a Synapse module (Module API; tested with Synapse 1.163).

A direct-chat alias is `#<product id>_<product id>:<server>` (docs/contract.md §3): the web client joins a
direct chat by that alias and creates the room under it when the join fails. A third user who
claimed such an alias first would get the two players' "direct" chat, or block it. So an alias
whose local part has the direct-chat shape may only be created (createRoom `room_alias_name`,
PUT /directory/room/{alias}) by one of the two users it names; anyone else gets 403 M_FORBIDDEN,
as from the embedded homeserver. The shape is the one of
packages/shared/src/chat/index.ts parseDirectRoomAliasLocalpart: two lower-case UUIDs joined by `_`, in
any order, matched case-insensitively. (Synapse does not ask modules about server admins'
aliases; openpug's accounts are not admins.)

Enable it in homeserver.yaml, with this directory on Synapse's PYTHONPATH:

    modules:
      - module: openpug_synapse.DirectRoomAliasGuard
        config: {}
"""

from __future__ import annotations

import re
from typing import Any, Literal

from synapse.module_api import NOT_SPAM, ModuleApi, RoomAlias, UserID
from synapse.module_api.errors import Codes

_PRODUCT_USER_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_DIRECT_LOCALPART = re.compile(
    rf"^({_PRODUCT_USER_ID})_({_PRODUCT_USER_ID})$", re.IGNORECASE
)


def parse_direct_room_alias_localpart(localpart: str) -> tuple[str, str] | None:
    """The two product user ids (lower-case) of a direct-chat alias local part, else None."""
    m = _DIRECT_LOCALPART.fullmatch(localpart)
    return (m.group(1).lower(), m.group(2).lower()) if m else None


class DirectRoomAliasGuard:
    def __init__(self, config: dict[str, Any], api: ModuleApi):
        self._api = api
        api.register_spam_checker_callbacks(
            user_may_create_room_alias=self.user_may_create_room_alias
        )

    @staticmethod
    def parse_config(config: dict[str, Any] | None) -> dict[str, Any]:
        return config or {}

    async def user_may_create_room_alias(
        self, user_id: str, room_alias: RoomAlias
    ) -> Literal["NOT_SPAM"] | Codes:
        peers = parse_direct_room_alias_localpart(room_alias.localpart)
        if peers is None:
            return NOT_SPAM
        if self._api.is_mine(user_id) and UserID.from_string(user_id).localpart in peers:
            return NOT_SPAM
        return Codes.FORBIDDEN
