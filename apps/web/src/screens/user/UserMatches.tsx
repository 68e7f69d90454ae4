import { useParams } from 'react-router';
import { AfterFirstPaint } from '../../app/AfterFirstPaint';
import { lazyFeature } from '../../app/lazyFeature';
import type { ScreenProps } from '../../app/screenModules';

const UserMatchesSection = lazyFeature(() =>
  import('./UserMatchesSection').then((m) => m.UserMatchesSection),
);

/**
 * A player's matches (/user/:userId/matches), the default section of the player page. The player
 * screen is a plain one, so this section loads its MUI list itself, after the header has painted.
 */
export function UserMatches(_props: ScreenProps) {
  const { userId = '' } = useParams();
  return (
    <AfterFirstPaint>
      <UserMatchesSection userId={userId} />
    </AfterFirstPaint>
  );
}
