import Drawer from '@mui/material/Drawer';
import { tokens } from '../../ui/tokens';
import { setNavigationOpen, useLayoutState } from './layoutState';
import { NavigationMenu } from './NavigationMenu';

/** The navigation sidebar as an overlay drawer on phones, opened from the top bar. */
export function PhoneNavigationDrawer() {
  const open = useLayoutState((s) => s.navigationOpen);
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={() => setNavigationOpen(false)}
      sx={{ '& .MuiDrawer-paper': { width: tokens.navigationWidth, maxWidth: '85vw' } }}
    >
      <NavigationMenu />
    </Drawer>
  );
}
