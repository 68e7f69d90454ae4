import Avatar from '@mui/material/Avatar';

/** A user's avatar, or their initial on a colour derived from their id. */
export function UserAvatar({
  user,
  size = 40,
}: {
  user: { _id: string; name: string | null; avatar: string | null };
  size?: number;
}) {
  let hash = 0;
  for (const c of user._id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return (
    <Avatar
      src={user.avatar ?? undefined}
      alt=""
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.42,
        fontWeight: 700,
        bgcolor: `hsl(${hash % 360} 45% 32%)`,
        color: '#fff',
      }}
    >
      {(user.name ?? '?').trim().charAt(0).toUpperCase() || '?'}
    </Avatar>
  );
}
