import { create } from 'zustand';

/** Which of the overlay drawers (phone navigation, narrow-screen friends) is open. */
interface LayoutState {
  navigationOpen: boolean;
  friendsOpen: boolean;
}

export const useLayoutState = create<LayoutState>(() => ({ navigationOpen: false, friendsOpen: false }));

export const setNavigationOpen = (navigationOpen: boolean) => useLayoutState.setState({ navigationOpen });
export const setFriendsOpen = (friendsOpen: boolean) => useLayoutState.setState({ friendsOpen });
