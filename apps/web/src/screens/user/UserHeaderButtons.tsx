import type { UserCard } from '@openpug/shared';
import { useCardActions } from '../../features/friends/useCardActions';
import { CardButtons } from '../../ui/UserCard';

/**
 * The header's buttons: Steam, and the friend buttons that fit the relation (MUI and the friends'
 * actions; UserHeader mounts them after its first paint).
 */
export function UserHeaderButtons({ user }: { user: UserCard }) {
  const { relation, actions } = useCardActions(user._id);
  return <CardButtons user={user} relation={relation} actions={actions} size="medium" hideProfile />;
}
