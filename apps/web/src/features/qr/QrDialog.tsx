/** The QR code dialog promoting the mobile queue app (SPEC §1, §9). Filled by a later issue. */
export function QrDialog() {
  return null;
}
