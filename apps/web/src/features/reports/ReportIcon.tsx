import { type IconProps, LineIcon } from '../../ui/icons';

/** A flag: reports. */
export function ReportIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M5 21V4M5 4h11l-2 4 2 4H5" />
    </LineIcon>
  );
}
