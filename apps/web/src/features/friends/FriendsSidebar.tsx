/**
 * The right-hand friends sidebar (SPEC §2 Friends sidebar). The layout gives it its area while
 * the user is logged in; the friends feature fills it (own card, tabs, search, global chat).
 */
export function FriendsSidebar() {
  return null;
}
