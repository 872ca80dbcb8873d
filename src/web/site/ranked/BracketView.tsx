import { Box, Chip, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { BracketMatch } from '../../../contract/tournaments.ts';

type Side = BracketMatch['sides'][number];

/** One side of a match: seed, name, score; the winner in bold, a forfeit marked, a bye said so. */
function SideLine({ side, known }: { side: Side; known: boolean }) {
  const { t } = useTranslation('ranked');
  const won = side.result === 'win';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 0.5, minWidth: 0 }} data-result={side.result ?? ''}>
      <Typography variant="caption" color="text.secondary" sx={{ width: 20, flexShrink: 0 }}>
        {side.seed ?? ''}
      </Typography>
      <Typography
        sx={{ flex: 1, minWidth: 0, fontWeight: won ? 700 : 400, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        color={side.player ? 'text.primary' : 'text.secondary'}
      >
        {side.player ? (side.player.mcName ?? side.player.name) : known ? t('tournaments.bracket.bye') : t('tournaments.bracket.tbd')}
      </Typography>
      {side.forfeit && <Chip size="small" variant="outlined" label={t('tournaments.bracket.forfeit')} />}
      <Typography sx={{ fontWeight: won ? 700 : 400, minWidth: 16, textAlign: 'right' }}>{side.score ?? ''}</Typography>
    </Box>
  );
}

function MatchBox({ match }: { match: BracketMatch }) {
  const { t } = useTranslation('ranked');
  // A side without a player in a match past LOCKED is a bye; in a LOCKED one, not known yet.
  const known = match.status !== 'LOCKED';
  return (
    <Paper variant="outlined" sx={{ width: { xs: '100%', sm: 240 }, flexShrink: 0 }} data-testid="bracket-match" data-status={match.status}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', px: 1, pt: 0.5 }}>
        <Typography variant="caption" color="text.secondary">
          {t('tournaments.bracket.match', { number: match.number })}
        </Typography>
        {match.status === 'RUNNING' && <Chip size="small" color="secondary" label={t('tournaments.bracket.live')} />}
      </Box>
      {match.sides.map((side, i) => (
        <SideLine key={i} side={side} known={known} />
      ))}
      {match.overrideReason && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 1, pb: 0.5 }}>
          {t('tournaments.bracket.overridden', { reason: match.overrideReason })}
        </Typography>
      )}
    </Paper>
  );
}

const parts = ['WINNERS', 'GROUP', 'LOSERS', 'FINAL', 'THIRD_PLACE'] as const;

/**
 * A bracket drawn from the API's matches: each part (winners, losers, final, third place, or the
 * round robin's group) a row of rounds, each round a column of matches, scrolling sideways when
 * wider than the page; on a phone the rounds come one under the other, each match the page's width.
 */
export function BracketView({ matches }: { matches: BracketMatch[] }) {
  const { t } = useTranslation('ranked');
  return (
    <Box data-testid="bracket">
      {parts
        .filter((part) => matches.some((m) => m.part === part))
        .map((part) => {
          const ofPart = matches.filter((m) => m.part === part);
          const rounds = [...new Set(ofPart.map((m) => m.round))].sort((a, b) => a - b);
          return (
            <Box key={part} sx={{ mb: 2 }}>
              {part !== 'WINNERS' && part !== 'GROUP' && (
                <Typography variant="h4" sx={{ fontSize: '1.05rem', mb: 1 }}>
                  {t(`tournaments.bracket.parts.${part}`)}
                </Typography>
              )}
              <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, overflowX: 'auto', pb: 1 }} tabIndex={0} aria-label={t(`tournaments.bracket.parts.${part}`)}>
                {rounds.map((round) => (
                  <Box key={round} sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-around', gap: 1.5 }}>
                    <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 700 }}>
                      {t('tournaments.bracket.round', { round })}
                    </Typography>
                    {ofPart
                      .filter((m) => m.round === round)
                      .map((m) => (
                        <MatchBox key={m.id} match={m} />
                      ))}
                  </Box>
                ))}
              </Box>
            </Box>
          );
        })}
    </Box>
  );
}
