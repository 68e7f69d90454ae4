import Drawer from '@mui/material/Drawer';
import { tokens } from '../../ui/tokens';
import { setFriendsOpen, useLayoutState } from './layoutState';
import { LazyFriendsSidebar } from './slots';

/** Below the wide layout the friends sidebar slides in from the right. */
export function FriendsDrawer() {
  const open = useLayoutState((s) => s.friendsOpen);
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={() => setFriendsOpen(false)}
      sx={{
        '& .MuiDrawer-paper': { width: `max(${tokens.friendsWidth}, min(340px, 88vw))`, maxWidth: '88vw' },
      }}
    >
      <LazyFriendsSidebar />
    </Drawer>
  );
}
