import { type CardUser, UserCard } from '../../ui/UserCard';
import { useCardActions } from './useCardActions';

/** A user card wired to the viewer's friends: the buttons follow the live relation. */
export function FriendUserCard({ user, elevation }: { user: CardUser; elevation?: number }) {
  const { relation, actions } = useCardActions(user._id);
  return (
    <UserCard
      user={user}
      relation={relation}
      actions={{ ...actions, onRemove: undefined }}
      elevation={elevation}
    />
  );
}
