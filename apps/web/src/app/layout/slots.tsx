/**
 * The layout's slots that later features fill (friends sidebar, queue widget, match-result and
 * QR dialogs). They are logged-in features and load lazily inside FeatureProviders, so their
 * features can use MUI freely without growing the landing page's first load.
 */
import { Suspense } from 'react';
import { lazyFeature } from '../lazyFeature';

const FriendsSidebar = lazyFeature(() =>
  import('../../features/friends/FriendsSidebar').then((m) => m.FriendsSidebar),
);
const QueueWidget = lazyFeature(() => import('../../features/queue/QueueWidget').then((m) => m.QueueWidget));
const MatchResultDialog = lazyFeature(() =>
  import('../../features/matches/MatchResultDialog').then((m) => m.MatchResultDialog),
);
const QrDialog = lazyFeature(() => import('../../features/qr/QrDialog').then((m) => m.QrDialog));
const DropToast = lazyFeature(() => import('../../features/drops/DropToast').then((m) => m.DropToast));
const SubstituteOfferDialog = lazyFeature(() =>
  import('../../features/matches/SubstituteOfferDialog').then((m) => m.SubstituteOfferDialog),
);
const ChatRuntime = lazyFeature(() => import('../../features/chat/ChatRuntime').then((m) => m.ChatRuntime));

export function LazyFriendsSidebar() {
  return (
    <Suspense fallback={null}>
      <FriendsSidebar />
    </Suspense>
  );
}

/** Queue widget, match-result dialog and QR dialog; chat routes leave out the first two. */
export function LoggedInOverlays({ onChatRoute }: { onChatRoute: boolean }) {
  return (
    <>
      <Suspense fallback={null}>
        {!onChatRoute && <QueueWidget />}
        {!onChatRoute && <MatchResultDialog />}
        <SubstituteOfferDialog />
        <QrDialog />
        <ChatRuntime onChatRoute={onChatRoute} />
      </Suspense>
      {/* Its own boundary: the drop toast must not wait for the other overlays' chunks. */}
      <Suspense fallback={null}>
        <DropToast />
      </Suspense>
    </>
  );
}
