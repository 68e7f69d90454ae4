/**
 * The reliability score (docs/contract.md §4 "Reliability"): the share of a player's last 50
 * matches they accepted, joined and played to the end, as "96 %" — green from 90 %, amber from
 * 70 %, red below; "New" for a player without any match yet. The hint says what it counts.
 * Plain React (the player page's first paint draws it).
 */
import { useTranslation } from 'react-i18next';
import { Figure } from './CardFigures';
import { tokens } from './tokens';

/** The colour of a score: green from 90 %, amber from 70 %, red below. */
export function reliabilityColour(percent: number): string {
  return percent >= 90 ? tokens.success : percent >= 70 ? tokens.warning : tokens.error;
}

/** The value alone (a caption line in the draft pool, a stat on the card). */
export function ReliabilityValue({ percent }: { percent: number | null | undefined }) {
  const { t } = useTranslation();
  const known = typeof percent === 'number';
  return (
    <span
      data-testid="reliability"
      title={t('reliability.hint')}
      style={{
        fontWeight: 700,
        whiteSpace: 'nowrap',
        color: known ? reliabilityColour(percent) : tokens.textMuted,
      }}
    >
      {known ? t('reliability.value', { percent }) : t('reliability.none')}
    </span>
  );
}

/** Label over value, as the card's other figures. */
export function ReliabilityStat({
  percent,
  size = 'body',
}: {
  percent: number | null | undefined;
  size?: 'body' | 'large';
}) {
  const { t } = useTranslation();
  return (
    <Figure label={t('reliability.label')} size={size}>
      <ReliabilityValue percent={percent} />
    </Figure>
  );
}
